#!/usr/bin/env node
// Runs one step of `npm start` / `npm test` and says what it is doing and how long it took: a "skillgraph: LABEL..."
// line first, a "... still LABEL (N s)" line whenever the step has printed nothing for HEARTBEAT seconds, and
// "skillgraph: LABEL: done in N s" (or "failed (exit N) after N s") at the end. The step's stdout stays stdout and its
// stderr stays stderr; the progress lines go to stderr, so `npm start -- -p ... > answer.md` keeps only the answer.
// Usage: node scripts/progress.mjs [--inherit] "LABEL" COMMAND [ARGS...]   (exit status: the command's)
// --inherit: the command writes straight to the terminal (colours, columns); its output is not watched, so the
// heartbeat is then time-based only.
import { spawn } from "node:child_process";

const HEARTBEAT_MS = Number(process.env.SKILLGRAPH_PROGRESS_HEARTBEAT_MS ?? 5_000);
const inherit = process.argv[2] === "--inherit";
const [label, command, ...args] = process.argv.slice(inherit ? 3 : 2);
if (!label || !command) {
  console.error('usage: node scripts/progress.mjs "LABEL" COMMAND [ARGS...]');
  process.exit(2);
}

/** The label without its parenthesised explanation, for the heartbeat and the last line. */
const short = label.replace(/ \(.*$/, "");
const started = Date.now();
let lastOutput = started;
const seconds = (ms) => (ms / 1000).toFixed(1);
const say = (line) => {
  process.stderr.write(`skillgraph: ${line}\n`);
  lastOutput = Date.now();
};

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
    if (Date.now() - lastOutput >= HEARTBEAT_MS) say(`  ... still ${short} (${seconds(Date.now() - started)} s)`);
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
  const took = seconds(Date.now() - started);
  if (code === 0) say(`${short}: done in ${took} s`);
  else say(`${short}: failed (${signal ? `signal ${signal}` : `exit ${code}`}) after ${took} s`);
  process.exit(code ?? 1);
});
