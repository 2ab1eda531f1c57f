// Spawn overhead of a trivial command (`true`) with the local and bubblewrap executors, the cost of the whole tool
// call (policy + workspace + output collection), and the time to kill a runaway process tree.
// Run: node --import tsx bench/shell-overhead.ts   (writes bench/results/shell.json)
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createBubblewrapExecutor, createLocalExecutor, createShellHook } from "../packages/shell/src/index.js";
import type { CommandExecutor, ExecutionRequest } from "../packages/shell/src/index.js";
import { shellSyntaxCost } from "./shell-syntax-cost.js";
import { execEnforcementCost } from "./exec-enforcement-cost.js";
import { resolveLimits } from "../packages/shell/src/executor/command-limits.js";
import { sandboxBaseArgs } from "../packages/shell/src/executor/bubblewrap-executor.js";
import { resolveExecutable } from "../packages/shell/src/policy/program-resolution.js";

const runs = Number(process.env.BENCH_RUNS ?? 60);
const workspaceDir = mkdtempSync(path.join(os.tmpdir(), "shell-bench-"));

function request(argv: string[], timeoutMs = 60_000): ExecutionRequest {
  return {
    argv,
    cwd: workspaceDir,
    workspaceDir,
    env: {},
    timeoutMs,
    killGraceMs: 1_000,
    maxOutputBytes: 16_384,
    killAfterOutputBytes: 1 << 26,
    runId: randomUUID(),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function time(
  label: string,
  once: () => Promise<unknown>,
): Promise<{ label: string; medianMs: number; p90Ms: number; runs: number }> {
  for (let warm = 0; warm < 3; warm += 1) await once();
  const samples: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    await once();
    samples.push(performance.now() - started);
  }
  const result = { label, medianMs: round(median(samples)), p90Ms: round(percentile(samples, 90)), runs };
  console.log(
    `${label.padEnd(44)} median ${result.medianMs.toFixed(2)} ms   p90 ${result.p90Ms.toFixed(2)} ms   (n=${runs})`,
  );
  return result;
}

const round = (value: number) => Math.round(value * 100) / 100;

/** Pause before each sample of the "paused" runs: where an agent's model call stands between two tool calls. */
const MODEL_CALL_PAUSE_MS = 200;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Medians of two operations run alternately (order swapped every round, 3 warm-up rounds), back to back or with
 * `pauseMs` before each sample, so a change in the machine's load falls on both alike.
 */
async function alternate(
  first: () => Promise<unknown>,
  second: () => Promise<unknown>,
  pauseMs: number,
): Promise<[number, number]> {
  const samples: [number[], number[]] = [[], []];
  for (let index = 0; index < runs + 3; index += 1) {
    const order: Array<[() => Promise<unknown>, number[]]> = [
      [first, samples[0]],
      [second, samples[1]],
    ];
    if (index % 2) order.reverse();
    for (const [once, into] of order) {
      if (pauseMs > 0) await pause(pauseMs);
      const started = performance.now();
      await once();
      if (index >= 3) into.push(performance.now() - started);
    }
  }
  return [round(median(samples[0])), round(median(samples[1]))];
}

const stubbornTree = "yes > /dev/null & sh -c 'yes > /dev/null' & (trap '' TERM; yes > /dev/null) & sleep 300";
const obedientTree = "yes > /dev/null & sh -c 'yes > /dev/null' & sh -c 'sleep 301 & wait' & sleep 300";

async function killTime(executor: CommandExecutor, tree: string): Promise<{ medianMs: number; runs: number }> {
  // time from the timeout firing to the result being ready (tree killed, leftovers swept, output collected)
  const samples: number[] = [];
  const timeoutMs = 200;
  const killRuns = Math.max(5, Math.floor(runs / 6));
  for (let index = 0; index < killRuns; index += 1) {
    const started = performance.now();
    const result = await executor.run({ ...request(["/bin/sh", "-c", tree], timeoutMs), killGraceMs: 500 });
    if (!result.timedOut) throw new Error("runaway process did not time out");
    samples.push(performance.now() - started - timeoutMs);
  }
  return { medianMs: round(median(samples)), runs: killRuns };
}

// parse and check cost per call on the corpus's command lines (before the spawn timings: no process load around it)
const syntaxCost = await shellSyntaxCost(process.argv.includes("--quick") ? 1 : 5);

const local = createLocalExecutor();
const results: Record<string, unknown> = {
  node: process.version,
  platform: `${process.platform} ${os.release()}`,
  cpus: os.cpus().length,
};
const localSpawn = await time("local: spawn `true`", () => local.run(request(["/bin/true"])));
results.localSpawn = localSpawn;
let bwrap: CommandExecutor | undefined;
try {
  bwrap = createBubblewrapExecutor();
} catch (error) {
  console.log(`bubblewrap unavailable: ${(error as Error).message}`);
}
if (bwrap) {
  const bwrapSpawn = await time("bubblewrap: spawn `true`", () => bwrap.run(request(["/bin/true"])));
  results.bubblewrapSpawn = bwrapSpawn;
  results.bubblewrapOverLocalRatio = round(bwrapSpawn.medianMs / localSpawn.medianMs);
  console.log(`bubblewrap / local ratio: ${results.bubblewrapOverLocalRatio}x`);
}

// the full tool call: parse, policy, fs checks, run, collect out/
const catalog = { get: () => undefined };
mkdirSync(path.join(workspaceDir, "out"), { recursive: true });
writeFileSync(path.join(workspaceDir, "out", "keep.txt"), "x");
for (const executor of ["local", ...(bwrap ? ["bubblewrap"] : [])] as const) {
  const hook = createShellHook({ skills: catalog, executor: executor as "local" | "bubblewrap", alwaysVisible: true });
  const shell = hook.tools.find((tool) => tool.name === "shell")!;
  results[`toolCall_${executor}`] = await time(`shell tool call (${executor}): \`true\``, () =>
    shell.invoke({ command: "true" }, { configurable: { thread_id: "bench" } }),
  );
}

// The floor: bare bwrap with the same mounts as the executor's (its base arguments, the workspace bound, the root
// read-only) running `bash -c true` spawned from this process, alternated call by call with the whole bubblewrap tool
// call (default limits, so the per-command cgroup where the host allows one), so a change in load falls on both;
// back to back and with a pause before each sample (where an agent's model call stands).
if (bwrap) {
  const bash = resolveExecutable("bash") ?? "/bin/bash";
  const bareArgs = [
    ...sandboxBaseArgs({}),
    ...["--bind", workspaceDir, "/workspace", "--remount-ro", "/", "--chdir", "/workspace"],
    ...["--", bash, "--noprofile", "--norc", "-c", "true"],
  ];
  const bwrapPath = resolveExecutable("bwrap") ?? "bwrap";
  const bare = () =>
    new Promise<void>((resolve) => {
      const child = spawn(bwrapPath, bareArgs, { stdio: ["pipe", "pipe", "pipe"] });
      child.stdin.end();
      child.once("close", () => resolve());
    });
  const hook = createShellHook({ skills: catalog, executor: "bubblewrap", alwaysVisible: true });
  const shell = hook.tools.find((tool) => tool.name === "shell")!;
  const call = () => shell.invoke({ command: "true" }, { configurable: { thread_id: "bench-floor" } });
  const floors: Record<string, unknown> = {};
  for (const pauseMs of [0, MODEL_CALL_PAUSE_MS]) {
    const [bareBwrapMs, toolCallMs] = await alternate(bare, call, pauseMs);
    const floor = { bareBwrapMs, toolCallMs, ratio: round(toolCallMs / bareBwrapMs), goalRatio: 2, runs, pauseMs };
    floors[pauseMs === 0 ? "backToBack" : "paused"] = floor;
    console.log(
      `bubblewrap tool call \`true\` vs bare bwrap (same mounts, alternated, ${pauseMs === 0 ? "back to back" : `${pauseMs} ms pause before each`}): ` +
        `bare ${floor.bareBwrapMs} ms, tool call ${floor.toolCallMs} ms, ratio ${floor.ratio}x (goal <= 2x) ${floor.ratio <= 2 ? "MET" : "NOT MET"}`,
    );
  }
  results.bubblewrapFloor = floors;
}

// What the hardening of issue 9 costs per call, measured in the same run: the same tool call with the parts that add
// process start-up turned off (no prlimit; for local also no PID namespace). The in-process checks (race-free
// staging and collection, wrapper unwrapping, environment allow-list) run in both; they cost microseconds.
const hardening: Record<string, unknown> = {};
for (const executor of ["local", ...(bwrap ? ["bubblewrap"] : [])] as const) {
  const baselineExecutor =
    executor === "local" ? createLocalExecutor({ isolateProcesses: false }) : createBubblewrapExecutor({});
  const baseline = createShellHook({ skills: catalog, executor: baselineExecutor, limits: false, alwaysVisible: true });
  const hardened = createShellHook({
    skills: catalog,
    executor: executor as "local" | "bubblewrap",
    alwaysVisible: true,
  });
  const call = (hook: typeof baseline) => () =>
    hook.tools
      .find((tool) => tool.name === "shell")!
      .invoke({ command: "true" }, { configurable: { thread_id: "bench" } });
  const before = await time(`tool call (${executor}), hardening off`, call(baseline));
  const after = await time(`tool call (${executor}), hardening on`, call(hardened));
  const extraMs = round(after.medianMs - before.medianMs);
  hardening[executor] = {
    offMs: before.medianMs,
    onMs: after.medianMs,
    extraMs,
    ratio: round(after.medianMs / before.medianMs),
  };
  console.log(
    `hardening cost (${executor}): +${extraMs} ms per call, ratio ${round(after.medianMs / before.medianMs)}x`,
  );
}
results.hardening = hardening;

// What the per-command cgroup costs (memory.max / pids.max for the whole tree; the command starts from a launcher
// armed ahead in its group, see armed-launcher.ts): the same command with the same limits, with and without the
// cgroup, alternated call by call so a change in the machine's load falls on both alike. Back to back, the next
// launcher's start (a fork of this process) falls on the following samples; with a pause it falls in the pause, as it
// falls in an agent's model call.
const limits = resolveLimits(undefined);
if (limits?.cgroups) {
  const { cgroups: _cgroups, ...withoutCgroup } = limits;
  const cgroupCost: Record<string, unknown> = {};
  const pairs: Array<[string, (limits: typeof withoutCgroup) => CommandExecutor]> = [
    ["local", (executorLimits) => createLocalExecutor({ limits: executorLimits })],
    ...(bwrap
      ? ([["bubblewrap", (executorLimits) => createBubblewrapExecutor({ limits: executorLimits })]] as Array<
          [string, (limits: typeof withoutCgroup) => CommandExecutor]
        >)
      : []),
  ];
  for (const [name, make] of pairs) {
    const off = make(withoutCgroup);
    const on = make(limits);
    const entries: Record<string, unknown> = {};
    for (const pauseMs of [0, MODEL_CALL_PAUSE_MS]) {
      const [offMs, onMs] = await alternate(
        () => off.run(request(["/bin/true"])),
        () => on.run(request(["/bin/true"])),
        pauseMs,
      );
      const entry = { offMs, onMs, extraMs: round(onMs - offMs), runs, pauseMs };
      entries[pauseMs === 0 ? "backToBack" : "paused"] = entry;
      console.log(
        `cgroup per command (${name}, ${pauseMs === 0 ? "back to back" : `${pauseMs} ms pause before each`}): off ${entry.offMs} ms, on ${entry.onMs} ms, ` +
          `+${entry.extraMs} ms at p50 (n=${runs}, alternated; goal <= 1 ms) ${entry.extraMs <= 1 ? "MET" : "NOT MET"}`,
      );
    }
    cgroupCost[name] = entries;
  }
  results.cgroupPerCommand = cgroupCost;
} else {
  console.log("cgroup per command: not available on this host (see the warning above)");
}

if (bwrap) results.execEnforcement = await execEnforcementCost(runs);

for (const [name, tree] of [
  ["obedient", obedientTree],
  ["stubborn", stubbornTree],
] as const) {
  const localKill = await killTime(local, tree);
  console.log(
    `local: kill ${name} runaway tree after timeout`.padEnd(56) +
      `median ${localKill.medianMs.toFixed(2)} ms (n=${localKill.runs}, grace 500 ms)`,
  );
  results[`localKill_${name}`] = localKill;
  if (bwrap) {
    const bwrapKill = await killTime(bwrap, tree);
    console.log(
      `bubblewrap: kill ${name} runaway tree after timeout`.padEnd(56) +
        `median ${bwrapKill.medianMs.toFixed(2)} ms (n=${bwrapKill.runs})`,
    );
    results[`bubblewrapKill_${name}`] = bwrapKill;
  }
}
if (syntaxCost) results.parseAndCheckOnCorpus = syntaxCost;
results.killNote =
  "obedient: 4 processes that exit on SIGTERM; stubborn: one ignores SIGTERM, so the local executor waits the 500 ms grace before SIGKILL (bubblewrap's PID namespace dies with the sandbox)";

const outFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "results/shell.json");
mkdirSync(path.dirname(outFile), { recursive: true });
writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
console.log(`wrote ${path.relative(process.cwd(), outFile)}`);
