#!/usr/bin/env node
// Runs one step of `npm start` / `npm test` and says what it is doing and how long it took: a "skillgraph: LABEL..."
// line first, a "... still LABEL (N s)" line whenever the step has printed nothing for HEARTBEAT seconds, and
// "skillgraph: LABEL: done in N s" (or "failed (exit N) after N s") at the end. The step's stdout stays stdout and its
// stderr stays stderr; the progress lines go to stderr, so `npm start -- -p ... > answer.md` keeps only the answer.
// Usage: node scripts/progress.mjs [--inherit] [--substep "LABEL" PATTERN "ABSENT"] "LABEL" COMMAND [ARGS...]
// (exit status: the command's)
// --inherit: the command writes straight to the terminal (colours, columns); its output is not watched, so the
// heartbeat is then time-based only.
// --substep: a part of the step that runs as a process of its own somewhere below the command (e.g. the native build
// pnpm runs inside `pnpm install`) is reported as a step of its own: "LABEL..." when a process whose command line
// matches the regular expression PATTERN appears, heartbeats naming it while it runs, and "LABEL: done in N s" when the
// last such process ends; the step's own last line then says how much of its time that part took. When no such process
// ran, the ABSENT line says why. Processes are seen through /proc (Linux); elsewhere the step is reported as one.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { matchingDescendants } from "./process-tree.mjs";

const HEARTBEAT_MS = Number(process.env.SKILLGRAPH_PROGRESS_HEARTBEAT_MS ?? 5_000);
const argv = process.argv.slice(2);
const inherit = argv[0] === "--inherit";
if (inherit) argv.shift();
const substep = argv[0] === "--substep" ? { label: argv[1], pattern: new RegExp(argv[2]), absent: argv[3] } : undefined;
if (substep) argv.splice(0, 4);
const [label, command, ...args] = argv;
if (!label || !command || (substep && (!substep.label || !substep.absent))) {
  console.error(
    'usage: node scripts/progress.mjs [--inherit] [--substep "LABEL" PATTERN "ABSENT"] "LABEL" COMMAND [ARGS...]',
  );
  process.exit(2);
}

/** A label without its parenthesised explanation, for the heartbeat and the last line. */
const shortOf = (text) => text.replace(/ \(.*$/, "");
const short = shortOf(label);
const started = Date.now();
let lastOutput = started;
const seconds = (ms) => (ms / 1000).toFixed(1);
const say = (line) => {
  process.stderr.write(`skillgraph: ${line}\n`);
  lastOutput = Date.now();
};

/** The sub-step's state: when it started (undefined while it does not run) and how long it ran in all. */
const part = { since: undefined, took: 0, seen: false, watch: substep !== undefined && existsSync("/proc/self/stat") };

/** Looks for the sub-step's processes below the command; says when it starts and when it ends. */
function watchSubstep() {
  if (!part.watch || child.pid === undefined) return;
  const running = matchingDescendants(child.pid, substep.pattern).length > 0;
  if (running && part.since === undefined) {
    part.since = Date.now();
    part.seen = true;
    say(`${substep.label}...`);
  } else if (!running && part.since !== undefined) endSubstep("done in");
}

/** The sub-step's last line ("done in N s", or how long it ran before the step failed). */
function endSubstep(how) {
  const took = Date.now() - part.since;
  part.took += took;
  part.since = undefined;
  say(`${shortOf(substep.label)}: ${how} ${seconds(took)} s`);
}

say(`${label}...`);
const child = spawn(command, args, { stdio: inherit ? "inherit" : ["inherit", "pipe", "pipe"] });
child.stdout?.on("data", (chunk) => {
  process.stdout.write(chunk);
  lastOutput = Date.now();
});
child.stderr?.on("data", (chunk) => {
  process.stderr.write(chunk);
  lastOutput = Date.now();
});
const heartbeat = setInterval(
  () => {
    watchSubstep();
    if (Date.now() - lastOutput < HEARTBEAT_MS) return;
    if (part.since !== undefined) say(`  ... still ${shortOf(substep.label)} (${seconds(Date.now() - part.since)} s)`);
    else say(`  ... still ${short} (${seconds(Date.now() - started)} s)`);
  },
  Math.max(250, Math.floor(HEARTBEAT_MS / 5)),
);
const forward = (signal) => child.kill(signal);
process.on("SIGINT", forward);
process.on("SIGTERM", forward);
child.on("error", (error) => {
  clearInterval(heartbeat);
  say(`${short}: could not start ${command}: ${error.message}`);
  process.exit(127);
});
child.on("close", (code, signal) => {
  clearInterval(heartbeat);
  if (part.since !== undefined) endSubstep(code === 0 ? "done in" : "stopped after");
  const took = seconds(Date.now() - started);
  const of = part.seen ? ` (${seconds(part.took)} s of it ${shortOf(substep.label)})` : "";
  if (code === 0 && part.watch && !part.seen) say(substep.absent);
  if (code === 0) say(`${short}: done in ${took} s${of}`);
  else say(`${short}: failed (${signal ? `signal ${signal}` : `exit ${code}`}) after ${took} s${of}`);
  process.exit(code ?? 1);
});
