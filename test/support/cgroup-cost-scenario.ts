// What the per-command cgroup costs a command, through the real local executor: `/bin/true` with the default limits,
// with and without the cgroup (memory.max / pids.max for the whole tree), alternated call by call so a change in the
// machine's load falls on both alike; back to back, and with a pause before each sample (where an agent's model call
// stands, in which the next armed launcher is made). A sample is the executor's whole run: start, exit, output
// collected, and (with the cgroup) the group's counters read. Run inside the cgroup v2 guest (test/support/cgroup-v2-vm.ts) and
// on the host in the same bench run (bench/cgroup-v2-guest.ts), whose cgroup-less figure calibrates the guest's.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { detectCgroupHost, type CgroupHost } from "../../packages/shell/src/executor/cgroup-host.js";
import { resolveLimits } from "../../packages/shell/src/executor/command-limits.js";
import type { CommandExecutor, ExecutionRequest } from "../../packages/shell/src/executor/executor-types.js";
import { createLocalExecutor } from "../../packages/shell/src/executor/local-executor.js";
import { resolveExecutable } from "../../packages/shell/src/policy/program-resolution.js";
import { median } from "../../bench/support/stats.js";

/** One arm's samples (ms, in the order taken), their median, and how many of its commands did not exit 0. */
export interface ArmSamples {
  medianMs: number;
  samplesMs: number[];
  failed: number;
}

/** One way of running the pairs: back to back (`pauseMs` 0) or with a pause before each sample. */
export interface CostPhase {
  pauseMs: number;
  off: ArmSamples;
  /** Absent where no per-command cgroup can be made (then only the cgroup-less arm runs). */
  on?: ArmSamples;
  /** on − off, medians (ms). */
  extraMs?: number;
}

/** Everything a run of the cost measurement saw. */
export interface CostReport {
  host: CgroupHost | { unavailable: string };
  kernel: string;
  /** Samples taken per arm and phase (after 3 warm-up rounds). */
  pairs: number;
  /** The group (memory controller's, or the v2 one) a probe command found itself in under each executor. */
  placement: { off: string; on?: string };
  backToBack: CostPhase;
  paused: CostPhase;
}

/** How many pairs, and the pause before each sample of the paused phase. */
export interface CostOptions {
  pairs: number;
  pauseMs: number;
  /**
   * The host's cgroup-less median back to back (ms), given to a guest under emulation: the pause is then `pauseMs`
   * times the guest's slowdown (its own cgroup-less median back to back over this), at most `maxPauseMs`, so that the
   * pause holds as much of the guest's work (the next launcher's arming) as `pauseMs` holds of the host's.
   */
  hostOffMs?: number;
  maxPauseMs?: number;
}

/** The pause of the paused phase: `pauseMs`, or scaled by the slowdown over the host (see {@link CostOptions}). */
function pauseFor(options: CostOptions, backToBack: CostPhase): number {
  if (!options.hostOffMs) return options.pauseMs;
  const slowdown = Math.max(1, backToBack.off.medianMs / options.hostOffMs);
  return Math.round(Math.min(options.maxPauseMs ?? Infinity, options.pauseMs * slowdown));
}

const WARM_UP_ROUNDS = 3;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number) => Math.round(value * 100) / 100;

function request(workspaceDir: string, argv: string[]): ExecutionRequest {
  return {
    argv,
    cwd: workspaceDir,
    workspaceDir,
    env: {},
    timeoutMs: 120_000,
    killGraceMs: 1_000,
    maxOutputBytes: 16_384,
    killAfterOutputBytes: 1 << 26,
    runId: randomUUID(),
  };
}

/** The group path a `/proc/<pid>/cgroup` text names: the v2 line on a v2 host, the memory controller's on v1. */
function groupPath(host: CgroupHost | { unavailable: string }, text: string): string {
  const pattern =
    "unavailable" in host || host.version === 2 ? /^0::(.*)$/m : /^\d+:(?:[^:]*,)?memory(?:,[^:]*)?:(.*)$/m;
  return pattern.exec(text)?.[1] ?? `(no group line in ${JSON.stringify(text)})`;
}

/**
 * The arms' samples, taken in turn (order reversed every round, {@link WARM_UP_ROUNDS} rounds first), `pauseMs`
 * before each sample.
 */
async function alternate(arms: Array<() => Promise<number | null>>, pairs: number, pauseMs: number) {
  const taken = arms.map(() => ({ samplesMs: [] as number[], failed: 0 }));
  for (let index = 0; index < pairs + WARM_UP_ROUNDS; index += 1) {
    const order = arms.map((_, arm) => arm);
    if (index % 2) order.reverse();
    for (const arm of order) {
      if (pauseMs > 0) await pause(pauseMs);
      const started = performance.now();
      const exitCode = await (arms[arm] as () => Promise<number | null>)();
      const elapsed = performance.now() - started;
      if (index < WARM_UP_ROUNDS) continue;
      const into = taken[arm] as { samplesMs: number[]; failed: number };
      into.samplesMs.push(round(elapsed));
      if (exitCode !== 0) into.failed += 1;
    }
  }
  return taken.map((arm) => ({ medianMs: round(median(arm.samplesMs)), ...arm }));
}

/**
 * Runs `/bin/true` through a local executor with the default limits, without the cgroup and (where one can be made)
 * with it, `pairs` times each, back to back and then with `pauseMs` before each sample.
 */
export async function runCgroupCost(options: CostOptions): Promise<CostReport> {
  const host = detectCgroupHost();
  const kernel = readFileSync("/proc/sys/kernel/osrelease", "utf8").trim();
  const limits = resolveLimits(undefined);
  if (!limits) throw new Error("no limits here (util-linux prlimit is missing)");
  const { cgroups, ...withoutCgroup } = limits;
  const executors: CommandExecutor[] = [createLocalExecutor({ limits: withoutCgroup })];
  if (cgroups) executors.push(createLocalExecutor({ limits }));
  const workspaceDir = mkdtempSync(path.join(os.tmpdir(), "cgroup-cost-"));
  const truePath = resolveExecutable("true") ?? "/bin/true";
  const catPath = resolveExecutable("cat") ?? "/bin/cat";
  try {
    await pause(1000); // the first launchers are armed (in their groups) before the first command comes
    const placement = [];
    for (const executor of executors) {
      const probe = await executor.run(request(workspaceDir, [catPath, "/proc/self/cgroup"]));
      placement.push(groupPath(host, probe.stdout));
    }
    const arms = executors.map(
      (executor) => async () => (await executor.run(request(workspaceDir, [truePath]))).exitCode,
    );
    const phase = async (pauseMs: number): Promise<CostPhase> => {
      const [off, on] = await alternate(arms, options.pairs, pauseMs);
      return {
        pauseMs,
        off: off as ArmSamples,
        ...(on ? { on, extraMs: round(on.medianMs - (off as ArmSamples).medianMs) } : {}),
      };
    };
    const backToBack = await phase(0);
    const paused = await phase(pauseFor(options, backToBack));
    return {
      host,
      kernel,
      pairs: options.pairs,
      placement: { off: placement[0] as string, ...(placement[1] !== undefined ? { on: placement[1] } : {}) },
      backToBack,
      paused,
    };
  } finally {
    rmSync(workspaceDir, { recursive: true, force: true });
  }
}
