import type { ExecutionResult } from "./executor-types.js";

const MIB = 1024 * 1024;

/** A size as people read it: MiB when whole, else bytes. */
function size(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

/** util-linux `unshare --fork` (the local executor's PID namespace) cannot re-raise its child's SIGKILL: it says this. */
const UNSHARE_SIGKILL_LINE = "unshare: sigprocmask unblock failed";

/**
 * The limits a command met, as plain sentences (from the kernel's counters of its cgroup, see
 * {@link ExecutionResult.limitExceeded}); empty when it met none.
 */
export function limitMessages(result: ExecutionResult): string[] {
  const { memory, processes } = result.limitExceeded ?? {};
  const messages: string[] = [];
  if (memory) {
    const unshare = result.stderr.includes(UNSHARE_SIGKILL_LINE)
      ? ` (the '${UNSHARE_SIGKILL_LINE}' line on stderr and exit 1 come from the process-namespace wrapper, which cannot pass a SIGKILL on)`
      : "";
    messages.push(
      `killed: the command went over its memory limit (${size(memory.limitBytes)}); the kernel's out-of-memory killer ended ${memory.oomKills === 1 ? "a process" : `${memory.oomKills} processes`} of it${unshare}`,
    );
  }
  if (processes)
    messages.push(
      `the command hit its process limit (${processes.limit} processes): ${processes.refusedForks === 1 ? "a fork" : `${processes.refusedForks} forks`} failed`,
    );
  return messages;
}
