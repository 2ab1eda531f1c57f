import { readdirSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";

/** Environment variable that marks every process of a run (found again in /proc/<pid>/environ). */
export const RUN_MARKER_ENV = "SKILLGRAPH_RUN_ID";

/** Sends a signal to a whole process group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

let pidMax: number | undefined;

/** The kernel's pid_max (pids wrap around past it). */
function kernelPidMax(): number {
  if (pidMax === undefined) {
    try {
      pidMax = Number(readFileSync("/proc/sys/kernel/pid_max", "utf8").trim()) || 32_768;
    } catch {
      pidMax = 32_768;
    }
  }
  return pidMax;
}

/**
 * Process ids (other than this process) whose environment carries `SKILLGRAPH_RUN_ID=<runId>`; empty off Linux.
 * @param runId the run's marker
 * @param firstPid the run's first process: its descendants got larger pids (unless pids wrapped around, which is
 *   assumed when firstPid is near pid_max), so smaller ones are not read
 */
export async function findMarkedProcesses(runId: string, firstPid = 0): Promise<number[]> {
  let entries: string[];
  try {
    entries = await readdir("/proc");
  } catch {
    return [];
  }
  const needle = Buffer.from(`${RUN_MARKER_ENV}=${runId}\0`);
  const minPid = firstPid > 0 && firstPid < kernelPidMax() - 65_536 ? firstPid : 0;
  const pids = entries.filter(
    (entry) => /^\d+$/.test(entry) && Number(entry) >= minPid && Number(entry) !== process.pid,
  );
  const found = await Promise.all(
    pids.map(async (pid) => {
      try {
        const environ = await readFile(`/proc/${pid}/environ`);
        return environ.includes(needle) ? Number(pid) : undefined;
      } catch {
        return undefined;
      }
    }),
  );
  return found.filter((pid): pid is number => pid !== undefined);
}

/**
 * Whether the process group still has a live (non-zombie) member. `kill(-pgid, 0)` is not enough: zombies count as
 * members until someone reaps them, and a container's init may be slow to.
 */
export async function groupHasLiveMembers(pgid: number): Promise<boolean> {
  if (!signalGroup(pgid, 0)) return false;
  let entries: string[];
  try {
    entries = await readdir("/proc");
  } catch {
    return true;
  }
  const minPid = pgid < kernelPidMax() - 65_536 ? pgid : 0;
  const states = await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry) && Number(entry) >= minPid)
      .map(async (pid) => {
        try {
          const stat = await readFile(`/proc/${pid}/stat`, "utf8");
          const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
          return Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X";
        } catch {
          return false;
        }
      }),
  );
  return states.includes(true);
}

/** Signals every process marked with `runId`, including ones that left the process group (setsid, double fork). */
export async function signalMarkedProcesses(runId: string, signal: NodeJS.Signals, firstPid = 0): Promise<number> {
  const pids = await findMarkedProcesses(runId, firstPid);
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
  return pids.length;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Ends a process tree: SIGTERM to the group and to marked processes, waits up to `graceMs` for them to go, then
 * SIGKILL to whatever is left.
 * @param pgid the process group (the leader's pid)
 * @param runId the run's marker
 * @param graceMs time between TERM and KILL
 */
export async function terminateTree(pgid: number, runId: string, graceMs: number): Promise<void> {
  signalGroup(pgid, "SIGTERM");
  let marked = await signalMarkedProcesses(runId, "SIGTERM", pgid);
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (marked === 0 && !(await groupHasLiveMembers(pgid))) break;
    await sleep(25);
    marked = (await findMarkedProcesses(runId, pgid)).length;
  }
  signalGroup(pgid, "SIGKILL");
  await signalMarkedProcesses(runId, "SIGKILL", pgid);
}

/**
 * Kills every marked process, including a tree that keeps forking: each pass stops (SIGSTOP) what it finds, so a
 * stopped process cannot fork again, until a pass finds nothing new (at most 50 passes); then all get SIGKILL.
 */
async function freezeAndKillMarked(runId: string, firstPid: number): Promise<void> {
  const stopped = new Set<number>();
  for (let pass = 0; pass < 50; pass += 1) {
    const found = (await findMarkedProcesses(runId, firstPid)).filter((pid) => !stopped.has(pid));
    if (found.length === 0) break;
    for (const pid of found) {
      stopped.add(pid);
      try {
        process.kill(pid, "SIGSTOP");
      } catch {
        // already gone
      }
    }
  }
  for (const pid of stopped) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Kills what a finished command left behind (background children, setsid'ed daemons, fork loops). */
export async function killLeftovers(pgid: number, runId: string): Promise<void> {
  signalGroup(pgid, "SIGKILL");
  await freezeAndKillMarked(runId, pgid);
}

const live = new Set<number>();
let exitHookInstalled = false;

/**
 * Remembers a live process group so it is killed if this Node process exits first: on `exit`, and on SIGTERM, SIGINT
 * and SIGHUP (when no other listener handles the signal it is re-raised, so the process still ends as it would have).
 * SIGKILL cannot be caught: bubblewrap's --die-with-parent and the local executor's PID namespace cover it.
 */
export function trackGroup(pgid: number): () => void {
  live.add(pgid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    const killAll = () => {
      for (const group of live) signalGroup(group, "SIGKILL");
    };
    process.once("exit", killAll);
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
      const onSignal = () => {
        killAll();
        // alone: step aside and re-raise, so the default action (ending the process) still happens
        if (process.listenerCount(signal) === 1) {
          process.removeListener(signal, onSignal);
          process.kill(process.pid, signal);
        }
      };
      process.on(signal, onSignal);
    }
  }
  return () => live.delete(pgid);
}

/** The kernel's flag of a task in `do_exit` (`/proc/<pid>/stat`'s ninth field): past the point of no return. */
const PF_EXITING = 0x4;

/**
 * True when every thread of `pid` is exiting (or gone): it runs no code of its program any more, forks nothing, and
 * the OOM killer passes it over (so it changes none of its cgroup's counters). A process whose first thread exited
 * while another still runs is not exiting.
 */
export function processExiting(pid: number | string): boolean {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return true; // gone
  }
  for (const thread of threads) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${thread}/stat`, "utf8");
    } catch {
      continue; // gone
    }
    const flags = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[6]);
    if (!(flags & PF_EXITING)) return false;
  }
  return true;
}
