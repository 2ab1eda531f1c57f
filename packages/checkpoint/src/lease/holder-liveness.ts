import { readFileSync } from "node:fs";

let bootId: string | undefined | null = null;

function readBootId(): string | undefined {
  if (bootId === null) {
    try {
      bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
    } catch {
      bootId = undefined;
    }
  }
  return bootId;
}

/** State letter and start time (clock ticks since boot) of a process, from `/proc/<pid>/stat`; undefined when it does not exist. */
function readStat(pid: number): { state: string; startTicks: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid ..." where comm may hold spaces and parentheses: the fields start after the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const startTicks = fields[19]; // field 22 of proc(5), "starttime"
  return state && startTicks ? { state, startTicks } : undefined;
}

/**
 * What tells a process apart from a later one that reuses its pid: `<boot id>/<start time in ticks>` (Linux `/proc`);
 * "" where `/proc` is not available (then a dead holder is only taken over when its lease expires).
 */
export function processIdentity(pid: number = process.pid): string {
  const boot = readBootId();
  const stat = boot === undefined || !Number.isSafeInteger(pid) || pid <= 0 ? undefined : readStat(pid);
  return boot !== undefined && stat ? `${boot}/${stat.startTicks}` : "";
}

/** What this host can tell of a lease holder's process: `gone`, `alive`, or `unknown` (another host, no identity, no `/proc`). */
export type HolderState = "gone" | "alive" | "unknown";

/**
 * Whether a lease holder's process still runs, as far as this host can tell: it recorded this host and a process
 * identity, and that process is gone (no such pid, a zombie, the pid now belongs to a process started later, or the
 * machine rebooted since), or still runs; `unknown` whenever it cannot be known (another host, no identity recorded,
 * no `/proc`).
 */
export function holderState(holder: { pid: number; host: string; identity: string }, thisHost: string): HolderState {
  if (holder.host !== thisHost || holder.identity === "") return "unknown";
  const boot = readBootId();
  if (boot === undefined) return "unknown";
  const [holderBoot] = holder.identity.split("/");
  if (holderBoot !== boot) return "gone"; // recorded before the last reboot
  const stat = readStat(holder.pid);
  if (!stat || stat.state === "Z" || stat.state === "X") return "gone";
  return `${boot}/${stat.startTicks}` === holder.identity ? "alive" : "gone";
}

/**
 * True when a lease holder certainly no longer runs (`holderState` is `gone`); false when it runs or cannot be known:
 * such a holder waits for expiry (or, on PostgreSQL, for its connection to be found gone).
 */
export function holderIsGone(holder: { pid: number; host: string; identity: string }, thisHost: string): boolean {
  return holderState(holder, thisHost) === "gone";
}
