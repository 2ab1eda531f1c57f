import { limitsPrefix, type CommandLimits } from "./command-limits.js";

/**
 * How every command of an executor starts: a bash that sets the command's rlimits (as `prlimit` would), closes every
 * descriptor but stdin, stdout and stderr, and execs the rest of the argv. Node's `spawn` closes only the descriptors
 * it opened itself (they are close-on-exec); one this process inherited without that flag (a supervisor's socket, a
 * parent's pipe) would otherwise reach the command, inside the sandbox too: bubblewrap passes on what it is given.
 */

/**
 * Bash that closes every descriptor above 2 it holds, as the system lists them (/proc/self/fd on Linux, /dev/fd
 * elsewhere); with neither listing it runs nothing (a descriptor it cannot see could be open). Closing the listing's
 * own descriptor (gone by then) is no error; `eval` only ever sees a number (the test before it fails on anything
 * else), and works in bash 3 (macOS), which has no `exec {f}>&-`.
 */
export const CLOSE_INHERITED = [
  "d=/proc/self/fd; [ -d $d ] || d=/dev/fd; [ -d $d ] || exit 125",
  'for f in $d/*; do f=${f##*/}; [ "$f" -gt 2 ] 2>/dev/null && eval "exec $f>&-"; done',
].join("\n");

/** Whether bash's `ulimit` (KiB for data and file size) can set exactly what `prlimit` sets in bytes. */
export function ulimitExact(limits: CommandLimits): boolean {
  return [limits.memoryBytes, limits.fileSizeBytes].every((bytes) => Number.isSafeInteger(bytes) && bytes % 1024 === 0);
}

/** Bash's `ulimit` commands for the limits (soft and hard alike, as `prlimit` sets them); exits 125 if one fails. */
export function ulimitCommands(limits: CommandLimits): string {
  const kib = (bytes: number) => String(bytes / 1024);
  return `${[
    `ulimit -d ${kib(limits.memoryBytes)}`,
    `ulimit -u ${limits.processes}`,
    `ulimit -f ${kib(limits.fileSizeBytes)}`,
    `ulimit -n ${limits.openFiles}`,
    "ulimit -c 0",
  ].join(" && ")} || exit 125`;
}

/**
 * The argv prefix that starts a command with the limits set and no inherited descriptor: one bash, which sets the
 * limits itself where its `ulimit` can do so exactly (else `prlimit` runs first) and execs the command.
 * @param limits the executor's limits (none: only the descriptors are closed)
 * @param bashPath absolute path of bash on this host
 */
export function startPrefix(limits: CommandLimits | undefined, bashPath: string): string[] {
  const byBash = limits !== undefined && ulimitExact(limits);
  const script = [...(byBash ? [ulimitCommands(limits)] : []), CLOSE_INHERITED, 'exec "$@"'].join("\n");
  return [
    ...(limits && !byBash ? limitsPrefix(limits) : []),
    bashPath,
    "--noprofile",
    "--norc",
    "-c",
    script,
    "skillgraph-start",
  ];
}
