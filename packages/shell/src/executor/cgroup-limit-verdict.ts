import { readFileSync } from "node:fs";
import path from "node:path";
import type { ExecutionResult, LimitExceeded, RunningCommand } from "./executor-types.js";
import { runningWithResult } from "./running-with-result.js";

/**
 * Whether a command met the limits of its cgroup, from the kernel's own counters of that group (never from what the
 * command printed): the OOM kills of the group (v2 `memory.events` `oom_kill`, v1 `memory.oom_control` `oom_kill`)
 * and the forks its process limit refused (`pids.events` `max`, v1 and v2). Read once nothing in the group runs (it is
 * empty, or what is left is exiting: it forks nothing and no OOM kill is counted against it) and before the group is
 * removed, so every event of the command's tree is counted and none of another command's.
 */

/** The kernel's counters of one command's group. */
export interface LimitCounters {
  /** Processes the OOM killer killed at the group's memory limit. */
  oomKills: number;
  /** Forks and clones refused at the group's process limit. */
  refusedForks: number;
}

/** A command's group as the verdict needs it (see CommandCgroup in command-cgroup.ts). */
export interface SettlingGroup {
  /** Empties the group and reads its counters. */
  settle(): Promise<LimitCounters>;
  /** Removes the group. */
  release(): Promise<void>;
}

/**
 * The value of `key` in a flat-keyed cgroup file (`key value` lines); 0 when the file or the key is missing. Read
 * synchronously: the kernel answers from memory in microseconds, where a read through the thread pool takes several
 * round trips (open, stat, read, close) on the command's path.
 */
function counter(file: string, key: string): number {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return 0; // a group made without the controller (tests), or a kernel without the counter
  }
  const value = new RegExp(`^${key} (\\d+)$`, "m").exec(text)?.[1];
  return value === undefined ? 0 : Number(value);
}

/**
 * Reads the counters of a group: `folders` as the group holds them (v2: the one group; v1: the memory group, then the
 * pids group).
 */
export function readLimitCounters(folders: readonly string[], version: 1 | 2): LimitCounters {
  const memory = folders[0] as string;
  const pids = (version === 2 ? folders[0] : folders[1]) ?? memory;
  return {
    oomKills: counter(path.join(memory, version === 2 ? "memory.events" : "memory.oom_control"), "oom_kill"),
    refusedForks: counter(path.join(pids, "pids.events"), "max"),
  };
}

/** The limits a command met, for its result: undefined when it met none. */
function limitExceeded(
  counters: LimitCounters,
  limits: { memoryBytes: number; processes: number },
): LimitExceeded | undefined {
  if (counters.oomKills === 0 && counters.refusedForks === 0) return undefined;
  return {
    ...(counters.oomKills > 0 ? { memory: { limitBytes: limits.memoryBytes, oomKills: counters.oomKills } } : {}),
    ...(counters.refusedForks > 0
      ? { processes: { limit: limits.processes, refusedForks: counters.refusedForks } }
      : {}),
  };
}

/** `ran` with the verdict of its group (unchanged when the group met no limit or its counters cannot be read). */
async function resultWithVerdict(
  ran: ExecutionResult,
  group: SettlingGroup,
  limits: { memoryBytes: number; processes: number },
): Promise<ExecutionResult> {
  let exceeded: LimitExceeded | undefined;
  try {
    exceeded = limitExceeded(await group.settle(), limits);
  } catch {
    exceeded = undefined; // the command's own result stands
  } finally {
    void group.release();
  }
  return exceeded ? { ...ran, limitExceeded: exceeded } : ran;
}

/**
 * The command with its group's verdict: once the command's result is in, what is left in the group is killed, the
 * counters are read (nothing in the group running), the result carries `limitExceeded`, and the group is removed (not awaited).
 */
export function withLimitVerdict(
  running: RunningCommand,
  group: SettlingGroup,
  limits: { memoryBytes: number; processes: number },
): RunningCommand {
  const result = running.result.then((ran) => resultWithVerdict(ran, group, limits));
  return runningWithResult(running, result);
}
