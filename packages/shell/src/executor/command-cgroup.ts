import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { access, mkdir, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { readLimitCounters, withLimitVerdict, type LimitCounters } from "./cgroup-limit-verdict.js";
import type { CgroupHost } from "./cgroup-host.js";
import type { RunningCommand } from "./executor-types.js";
import { processExiting } from "./process-tree.js";

/**
 * A control group per command: `memory.max` and `pids.max` (cgroup v2) or `memory.limit_in_bytes` and `pids.max`
 * (cgroup v1) hold for the command's whole process tree, shared memory and memfd included, which per-process rlimits
 * do not. Groups are made under this process's own group (delegation: nothing outside it is touched) and killed and
 * removed when the command ends. A command joins its group in one of two ways, both leaving no process outside:
 * - adopted: this process moves the command's first process into the group right after `spawn` (cheap), then walks
 *   the tree it may already have started and moves each process, pass after pass, until a pass finds none left
 *   outside (else the command is killed). Used where the first fork of the chain starts a new PID namespace
 *   (bubblewrap, the local executor's `unshare`), so a process that exited early took its descendants with it;
 * - self-joined: a small `sh` writes its own pid into the group and then execs the command (if the write fails the
 *   command does not run). Slower (a few ms: a process moving itself waits for the kernel), used otherwise.
 */

/** One command's group, made before it starts. */
export interface CommandCgroup {
  /** The argv prefix that joins the group and then execs the rest. */
  joinPrefix: string[];
  /** Moves `pid` and every process it started into the group; false when that could not be made complete. */
  adopt(pid: number): boolean;
  /**
   * Moves one process that starts nothing meanwhile (a launcher waiting for its command) into the group, off the
   * event loop: the kernel makes a move wait for an RCU grace period (~10 ms here), which this keeps off the command.
   */
  join(pid: number): Promise<boolean>;
  /**
   * Kills what is left in the group, waits (bounded) until nothing in it runs (empty, or only processes already
   * exiting) and reads the kernel's counters of its limits; once per group (later calls get the same answer).
   */
  settle(): Promise<LimitCounters>;
  /** Settles the group (if not yet) and removes it. */
  release(): Promise<void>;
  /**
   * Settles the group (if not yet) and makes it ready for another command: once it is empty and charged with little
   * memory (a command's files left in a tmpfs stay charged to its group), its counters count from then on. False when
   * it cannot be: it is removed then.
   */
  recycle(): Promise<boolean>;
}

/** Most passes over a starting tree before adoption gives up (and the command is killed). */
const MAX_ADOPT_PASSES = 8;
let childrenListed: boolean | undefined;

/** True when the kernel lists each task's children (`/proc/<pid>/task/<tid>/children`, CONFIG_PROC_CHILDREN). */
function canListChildren(): boolean {
  childrenListed ??= existsSync(`/proc/self/task/${process.pid}/children`);
  return childrenListed;
}

function childrenOf(pid: number): number[] {
  const found: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const task of tasks) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" "))
        if (child.trim() !== "") found.push(Number(child));
    } catch {
      // the task ended meanwhile
    }
  }
  return found;
}

/**
 * Moves `root` and its descendants into the group: each process is moved before its children are listed, so any
 * child it forks later is born inside; passes repeat until one moves no process it had not moved before.
 */
function adoptTree(procsFiles: readonly string[], root: number): boolean {
  const moved = new Set<number>();
  const move = (pid: number): boolean => {
    for (const file of procsFiles) {
      try {
        writeFileSync(file, String(pid));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ESRCH") return true; // already gone
        return false;
      }
    }
    return true;
  };
  for (let pass = 0; pass < MAX_ADOPT_PASSES; pass += 1) {
    let fresh = 0;
    const pending = [root];
    while (pending.length > 0) {
      const pid = pending.pop() as number;
      if (!moved.has(pid)) {
        if (!move(pid)) return false;
        moved.add(pid);
        fresh += 1;
      }
      pending.push(...childrenOf(pid));
    }
    if (fresh === 0 || (pass === 0 && moved.size === 1)) return true;
  }
  return false;
}

const JOIN_SCRIPT = 'for f; do [ "$f" = -- ] && break; echo $$ > "$f" || exit 125; shift; done; shift; exec "$@"';

/** Groups made and not yet removed: removed (when empty) as this process exits, so none outlives it. */
const live = new Set<string>();
let exitHook = false;

function track(folder: string): void {
  live.add(folder);
  if (exitHook) return;
  exitHook = true;
  process.once("exit", () => {
    for (const group of live) {
      try {
        rmdirSync(group);
      } catch {
        // still busy: its processes die with this one (die-with-parent / PID namespace), the kernel keeps the group
      }
    }
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What is left in a group: nothing, only processes already exiting, or a process that still runs. */
type MembersLeft = "none" | "exiting" | "running";

/**
 * Kills the processes of a group (v2: `cgroup.kill` where the kernel has it) and says what was left. The member list
 * is read synchronously (from the kernel's memory, microseconds; see cgroup-limit-verdict.ts).
 */
async function killMembers(folder: string, useKillFile: boolean): Promise<MembersLeft> {
  const members = readFileSync(path.join(folder, "cgroup.procs"), "utf8").split("\n").filter(Boolean);
  if (members.length === 0) return "none";
  if (useKillFile && existsSync(path.join(folder, "cgroup.kill")))
    await writeFile(path.join(folder, "cgroup.kill"), "1");
  else
    for (const pid of members) {
      try {
        process.kill(Number(pid), "SIGKILL");
      } catch {
        // already gone
      }
    }
  return members.every(processExiting) ? "exiting" : "running";
}

/**
 * Kills what is left in a group until nothing in it runs, or (`untilEmpty`) until it is empty; bounded (about 3 s,
 * then it is left as it is): false when not reached. Once nothing runs its counters are final: processes already
 * exiting fork nothing and the OOM killer passes them over. bubblewrap answers with its command's status while the
 * sandbox's first process still tears its mount namespace down (the kernel waits for an RCU grace period there, ms):
 * the command's result does not wait for that, the group's removal or reuse does. Processes still there are killed
 * and checked again soon, then further apart.
 */
async function stopMembers(folder: string, useKillFile: boolean, untilEmpty = false): Promise<boolean> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    let left: MembersLeft;
    try {
      left = await killMembers(folder, useKillFile);
    } catch {
      return false; // removed already, or unreadable: release() reports what it cannot remove
    }
    if (left === "none" || (left === "exiting" && !untilEmpty)) return true;
    await pause(Math.min(2 ** attempt, 250));
  }
  return false;
}

/** Most memory a group may still be charged with (page cache, files left in a tmpfs) to be handed to another command. */
const REUSE_CHARGE_BYTES = 32 * 1024 ** 2;

/** The memory a group is charged with (v2 `memory.current`, v1 `memory.usage_in_bytes`); Infinity when unknown. */
function chargedBytes(memoryFolder: string, version: 1 | 2): number {
  try {
    const text = readFileSync(
      path.join(memoryFolder, version === 2 ? "memory.current" : "memory.usage_in_bytes"),
      "utf8",
    );
    const value = Number(text.trim());
    return text.trim() === "" || !Number.isFinite(value) ? Infinity : value;
  } catch {
    return Infinity;
  }
}

/** Kills what is left in a group and removes it, off the event loop (removing a group can take the kernel ms). */
async function killAndRemove(folder: string, useKillFile: boolean): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    try {
      await killMembers(folder, useKillFile);
      await rmdir(folder);
      live.delete(folder);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        live.delete(folder);
        return;
      }
      await pause(25 * (attempt + 1));
    }
  }
  process.emitWarning(`@skillgraph/shell: could not remove the command's cgroup ${folder}`);
}

/** One step of making a command's group: a folder, or a limit file written (only if the kernel has it: `ifPresent`). */
type GroupStep = { folder: string } | { file: string; value: string; ifPresent?: boolean };

/** The folders and limit files of one command's group, in the order they are made. */
function groupSteps(host: CgroupHost, limits: { memoryBytes: number; processes: number }, runId: string): GroupStep[] {
  const name = `skillgraph-${process.pid}-${runId.replace(/[^A-Za-z0-9-]/g, "")}`;
  const memoryFolder = path.join(host.memoryParent, name);
  const memoryBytes = String(limits.memoryBytes);
  const processes = String(limits.processes);
  if (host.version === 2)
    return [
      { folder: memoryFolder },
      { file: path.join(memoryFolder, "memory.max"), value: memoryBytes },
      { file: path.join(memoryFolder, "memory.swap.max"), value: "0", ifPresent: true },
      { file: path.join(memoryFolder, "pids.max"), value: processes },
    ];
  const pidsFolder = path.join(host.pidsParent, name);
  return [
    { folder: memoryFolder },
    { file: path.join(memoryFolder, "memory.limit_in_bytes"), value: memoryBytes },
    { file: path.join(memoryFolder, "memory.memsw.limit_in_bytes"), value: memoryBytes, ifPresent: true },
    { folder: pidsFolder },
    { file: path.join(pidsFolder, "pids.max"), value: processes },
  ];
}

/** Removes the folders of a group that could not be made whole. */
function abandon(made: string[], host: CgroupHost): void {
  for (const folder of made.reverse()) void killAndRemove(folder, host.version === 2);
}

/**
 * Makes a group for one command with its memory and process limits.
 * @returns undefined when the group cannot be made (the caller warns; the rlimits still apply)
 */
export function openCommandCgroup(
  host: CgroupHost,
  limits: { memoryBytes: number; processes: number },
  runId: string,
): CommandCgroup | undefined {
  const made: string[] = [];
  try {
    for (const step of groupSteps(host, limits, runId)) {
      if ("folder" in step) {
        mkdirSync(step.folder);
        made.push(step.folder);
        track(step.folder);
      } else if (!step.ifPresent || existsSync(step.file)) writeFileSync(step.file, step.value);
    }
  } catch {
    abandon(made, host);
    return undefined;
  }
  return commandGroupAt(made, host.version);
}

/**
 * {@link openCommandCgroup} off the event loop, for a group made ahead of its command: the kernel holds its cgroup
 * lock while a move waits for an RCU grace period, so making a group beside another group's move can wait ms.
 */
export async function openCommandCgroupOffLoop(
  host: CgroupHost,
  limits: { memoryBytes: number; processes: number },
  runId: string,
): Promise<CommandCgroup | undefined> {
  const made: string[] = [];
  try {
    for (const step of groupSteps(host, limits, runId)) {
      if ("folder" in step) {
        await mkdir(step.folder);
        made.push(step.folder);
        track(step.folder);
      } else if (!step.ifPresent || (await present(step.file))) await writeFile(step.file, step.value);
    }
  } catch {
    abandon(made, host);
    return undefined;
  }
  return commandGroupAt(made, host.version);
}

async function present(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The join, adoption and removal of groups already made: `folders` holds one group per hierarchy the command must be
 * in (v2: the one group; v1: the memory and the pids group), filled and removed together.
 */
export function commandGroupAt(folders: readonly string[], version: 1 | 2): CommandCgroup {
  const made = [...folders];
  const procs = made.map((folder) => path.join(folder, "cgroup.procs"));
  let settled: Promise<LimitCounters> | undefined;
  /** The counters when the group was handed to its current command (zero in a new group). */
  let baseline: LimitCounters = { oomKills: 0, refusedForks: 0 };
  const group: CommandCgroup = {
    joinPrefix: ["/bin/sh", "-c", JOIN_SCRIPT, "skillgraph-cgroup", ...procs, "--"],
    adopt: (pid) => adoptTree(procs, pid),
    join: async (pid) => {
      try {
        for (const file of procs) await writeFile(file, String(pid));
        return true;
      } catch {
        return false;
      }
    },
    settle: () => {
      settled ??= (async () => {
        for (const folder of made) await stopMembers(folder, version === 2);
        const counted = readLimitCounters(made, version);
        return {
          oomKills: counted.oomKills - baseline.oomKills,
          refusedForks: counted.refusedForks - baseline.refusedForks,
        };
      })();
      return settled;
    },
    release: async () => {
      await group.settle();
      for (const folder of [...made].reverse()) await killAndRemove(folder, version === 2);
    },
    recycle: async () => {
      await group.settle();
      let empty = true;
      for (const folder of made) empty = (await stopMembers(folder, version === 2, true)) && empty;
      if (!empty || chargedBytes(made[0] as string, version) > REUSE_CHARGE_BYTES) {
        await group.release();
        return false;
      }
      baseline = readLimitCounters(made, version);
      settled = undefined;
      return true;
    },
  };
  return group;
}

let groupWarned = false;

/** The group a command starts in: the cgroup host (if any), the limits, the run id, whether the chain makes a PID namespace. */
export interface CgroupStart {
  host: CgroupHost | undefined;
  limits: { memoryBytes: number; processes: number };
  runId: string;
  startsNamespace: boolean;
}

/**
 * Starts a command inside a fresh group when `host` is set, and removes the group once the command's result is in.
 * `startsNamespace` says that the first process of the chain to fork makes a new PID namespace (so the command can be
 * adopted after `spawn`); otherwise `start` gets the self-join prefix. Without a host (or when the group cannot be
 * made) `start` gets [] and only the rlimits apply.
 */
export function startInCommandCgroup(
  { host, limits, runId, startsNamespace }: CgroupStart,
  start: (prefix: string[]) => RunningCommand,
): RunningCommand {
  const group = host ? openCommandCgroup(host, limits, runId) : undefined;
  if (host && !group && !groupWarned) {
    groupWarned = true;
    process.emitWarning(
      `@skillgraph/shell: could not make a cgroup under ${host.memoryParent}; this command's memory is limited per process only`,
    );
  }
  if (!group) return start([]);
  const adopt = startsNamespace && canListChildren();
  const running = start(adopt ? [] : group.joinPrefix);
  if (adopt && running.pid > 0 && !group.adopt(running.pid)) {
    // some process of the command could not be placed in its group: it does not run on outside the limits
    void running.kill();
  }
  return withLimitVerdict(running, group, limits);
}
