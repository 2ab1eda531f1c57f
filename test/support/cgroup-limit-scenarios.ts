// The per-command cgroup limits as a user meets them, through the real local executor: a command that allocates past
// its memory limit, a fork loop, a command under its limits. Run inside a guest kernel with every controller on cgroup
// v2 (test/support/cgroup-v2-vm.ts boots it) and, for comparison, on a host whose memory and pids groups are v1.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { detectCgroupHost, type CgroupHost } from "../../packages/shell/src/executor/cgroup-host.js";
import { resolveLimits } from "../../packages/shell/src/executor/command-limits.js";
import type {
  ExecutionRequest,
  LimitExceeded,
  RunningCommand,
} from "../../packages/shell/src/executor/executor-types.js";
import { createLocalExecutor } from "../../packages/shell/src/executor/local-executor.js";
import { findMarkedProcesses } from "../../packages/shell/src/executor/process-tree.js";

const MIB = 1024 * 1024;
/** The limits every scenario sets, as a user sets them (`limits` option of the shell hook). */
export const SCENARIO_LIMITS = { memoryBytes: 192 * MIB, processes: 32 };

/** What the command's group held while it ran, read from outside (the cgroup files of its first process's group). */
export interface GroupSeen {
  /** The group's folder name (`skillgraph-<pid>-…`). */
  name: string;
  /** memory.max (v2) or memory.limit_in_bytes (v1). */
  memoryLimit: string;
  pidsMax: string;
  /** pids.events and pids.current, read once the command had started its processes. */
  pidsEvents?: string;
  pidsCurrent?: string;
}

/** One scenario's result as the executor reported it, what its group held, and whether the group was let go. */
export interface ScenarioReport {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  killed: boolean;
  outputLimitExceeded: boolean;
  /** The limits the executor says the command met (from its group's counters), as the result carries them. */
  limitExceeded?: LimitExceeded;
  stdout: string;
  stderr: string;
  group?: GroupSeen;
  /** Nothing of the command was left in its group: removed, or kept empty for a later command's launcher. */
  groupReleased: boolean;
  /** The kernel's `oom-kill:` line naming this command's group as the one out of memory (from `dmesg`), if any. */
  oomKill?: string;
}

/** Everything a run of the scenarios saw. */
export interface LimitsReport {
  host: CgroupHost | { unavailable: string };
  kernel: string;
  memoryHog: ScenarioReport;
  forkLoop: ScenarioReport;
  underLimits: ScenarioReport;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const read = (file: string) => readFileSync(file, "utf8").trim();

/** The folders of the group `pid` is in, under the host's parents (groups are made right under them). */
function groupFolders(host: CgroupHost, pid: number): { name: string; memory: string; pids: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/cgroup`, "utf8");
  } catch {
    return undefined;
  }
  const pattern = host.version === 2 ? /^0::(.*)$/m : /^\d+:(?:[^:]*,)?memory(?:,[^:]*)?:(.*)$/m;
  const name = path.basename(pattern.exec(text)?.[1] ?? "");
  if (!name.startsWith("skillgraph-")) return undefined;
  return { name, memory: path.join(host.memoryParent, name), pids: path.join(host.pidsParent, name) };
}

/** Waits (bounded: 10 s) until the command's first process is in its own group, then reads the group's limits. */
async function seeGroup(host: CgroupHost, pid: number): Promise<GroupSeen | undefined> {
  for (let wait = 0; wait < 100; wait += 1) {
    const folders = groupFolders(host, pid);
    if (folders) {
      const memoryFile = host.version === 2 ? "memory.max" : "memory.limit_in_bytes";
      return {
        name: folders.name,
        memoryLimit: read(path.join(folders.memory, memoryFile)),
        pidsMax: read(path.join(folders.pids, "pids.max")),
      };
    }
    await pause(100);
  }
  return undefined;
}

/** The processes in a group's folder (none once it is removed). */
function members(folder: string): number[] {
  try {
    return readFileSync(path.join(folder, "cgroup.procs"), "utf8").split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Waits (bounded: 10 s) until nothing of the command is left in its group, as once the executor has let it go: its
 * folders removed, or kept for reuse, where at most a launcher armed since waits for a later command.
 */
async function released(host: CgroupHost, name: string): Promise<boolean> {
  const folders = [path.join(host.memoryParent, name), path.join(host.pidsParent, name)];
  const holdsCommand = async () => {
    const waiting = new Set(await findMarkedProcesses(`launcher-${process.pid}`));
    return folders.some((folder) => members(folder).some((pid) => !waiting.has(pid)));
  };
  for (let wait = 0; wait < 100 && (await holdsCommand()); wait += 1) await pause(100);
  return !(await holdsCommand());
}

function request(shellCommand: string, timeoutMs: number): ExecutionRequest {
  const workspaceDir = mkdtempSync(path.join(os.tmpdir(), "cgroup-limits-"));
  return {
    argv: [],
    shellCommand,
    cwd: workspaceDir,
    workspaceDir,
    env: {},
    timeoutMs,
    killGraceMs: 300,
    maxOutputBytes: 4096,
    killAfterOutputBytes: 1 << 24,
    runId: randomUUID(),
  };
}

/** Runs one command, reading its group while it runs (and once more when `onStderr` matches), then its release. */
async function scenario(options: {
  host: CgroupHost;
  start: (job: ExecutionRequest) => RunningCommand;
  command: string;
  timeoutMs: number;
  /** Reads pids.events and pids.current once stderr matches this (the fork loop hit its limit). */
  onStderr?: RegExp;
}): Promise<ScenarioReport> {
  const job = request(options.command, options.timeoutMs);
  const running = options.start(job);
  let stderr = "";
  let limitSeen: Promise<void> | undefined;
  const groupSeen = seeGroup(options.host, running.pid);
  running.onOutput((stream, chunk) => {
    if (stream !== "stderr" || !options.onStderr || limitSeen) return;
    stderr += chunk.toString();
    if (options.onStderr.test(stderr))
      limitSeen = (async () => {
        const group = await groupSeen;
        if (!group) return;
        group.pidsEvents = read(path.join(options.host.pidsParent, group.name, "pids.events"));
        group.pidsCurrent = read(path.join(options.host.pidsParent, group.name, "pids.current"));
      })();
  });
  running.closeStdin();
  const result = await running.result;
  const group = await groupSeen;
  await limitSeen;
  rmSync(job.workspaceDir, { recursive: true, force: true });
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    killed: result.killed,
    outputLimitExceeded: result.outputLimitExceeded,
    ...(result.limitExceeded ? { limitExceeded: result.limitExceeded } : {}),
    stdout: result.stdout.slice(-1500),
    stderr: result.stderr.slice(-1500),
    ...(group ? { group } : {}),
    groupReleased: group ? await released(options.host, group.name) : false,
  };
}

/** The kernel's record of an OOM kill inside the group `name` (its `oom_memcg` is that group), if `dmesg` shows one. */
function oomKillOf(name: string): string | undefined {
  const log = spawnSync("dmesg", { encoding: "utf8", env: { PATH: "/usr/bin:/bin" } }).stdout ?? "";
  return log.split("\n").find((line) => line.includes("oom-kill:") && line.includes(`/${name},task_memcg=`));
}

/** A node process that allocates 8 MiB at a time (each byte written) and says how much it holds, until stopped. */
const HOG =
  "const held = []; for (;;) { held.push(Buffer.alloc(8 << 20, 1)); console.log(`held ${held.length * 8} MiB`); }";

/**
 * Runs the three scenarios through a local executor with {@link SCENARIO_LIMITS}. The memory hog first fills 96 MiB
 * of /dev/shm (charged to its group, not to any process's data rlimit, and not reclaimable without swap), so the
 * group's memory limit, not the hog's own RLIMIT_DATA, is what it meets.
 */
export async function runLimitScenarios(): Promise<LimitsReport> {
  const host = detectCgroupHost();
  const kernel = read("/proc/sys/kernel/osrelease");
  const limits = resolveLimits(SCENARIO_LIMITS);
  if ("unavailable" in host || !limits?.cgroups) throw new Error(`no per-command cgroup here: ${JSON.stringify(host)}`);
  const executor = createLocalExecutor({ limits });
  const start = (job: ExecutionRequest) => executor.start(job);
  await pause(1000); // the first launcher is armed (in its group) before the first command comes
  const shm = `/dev/shm/cgroup-limits-${randomUUID()}`;
  const memoryHog = await scenario({
    host,
    start,
    command: `head -c ${96 * MIB} /dev/zero > ${shm} && exec node -e '${HOG}'`,
    timeoutMs: 60_000,
  });
  rmSync(shm, { force: true });
  const oomKill = memoryHog.group ? oomKillOf(memoryHog.group.name) : undefined;
  if (oomKill) memoryHog.oomKill = oomKill.replace(/^\[[^\]]*\] */, "");
  const forkLoop = await scenario({
    host,
    start,
    command: "while :; do sleep 30 & done",
    timeoutMs: 5_000,
    onStderr: /fork/,
  });
  const underLimits = await scenario({
    host,
    start,
    command: `sleep 1; node -e 'Buffer.alloc(32 << 20, 1); console.log("allocated 32 MiB")'`,
    timeoutMs: 60_000,
  });
  return { host, kernel, memoryHog, forkLoop, underLimits };
}
