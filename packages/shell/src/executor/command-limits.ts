import { z } from "zod";
import { InvalidOptionsError } from "../internal/core.js";
import { integerSchema, parseOptions } from "../internal/core.js";
import { booleanOption } from "../internal/zod-options.js";
import { resolveExecutable } from "../policy/program-resolution.js";
import { detectCgroupHost, type CgroupHost } from "./cgroup-host.js";

const GIB = 1024 ** 3;

/** A per-command limit: a positive integer up to `max`, `fallback` when not given. */
const limit = (max: number, fallback: number) => integerSchema({ max }).default(fallback);

/** The `limits` option as a zod schema (its type is {@link CommandLimitsOption}). */
export const commandLimitsOptionSchema = z.union(
  [
    z.literal(false),
    z.object({
      memoryBytes: limit(1024 * GIB, 4 * GIB),
      processes: limit(1_000_000, 512),
      fileSizeBytes: limit(1024 * GIB, GIB),
      openFiles: limit(1_048_576, 1024),
      tmpBytes: limit(1024 * GIB, 512 * 1024 ** 2),
      sharedMemoryBytes: limit(1024 * GIB, 64 * 1024 ** 2),
      /** A cgroup per command where the host allows it (`false`: per-process limits only). @default true */
      cgroup: booleanOption().default(true),
    }),
  ],
  { error: "must be false or an object" },
);

/** The `limits` option: `false` turns limits off; each value is optional (defaults in docs/shell.md). */
export type CommandLimitsOption = z.input<typeof commandLimitsOptionSchema>;

/**
 * Resource limits of one command, applied by util-linux `prlimit` per process, by a cgroup per command where the host
 * allows one (memory and process count of the whole tree, shared memory included), and by the sizes of the sandbox's
 * /tmp and /dev/shm under bubblewrap.
 */
export interface CommandLimits {
  /** Absolute path of `prlimit`. */
  prlimitPath: string;
  /** RLIMIT_DATA: heap and private mappings. */
  memoryBytes: number;
  /** RLIMIT_NPROC (per user; not enforced for root). */
  processes: number;
  /** RLIMIT_FSIZE: the largest file a command may write. */
  fileSizeBytes: number;
  /** RLIMIT_NOFILE. */
  openFiles: number;
  /** Size of the sandbox's private /tmp (bubblewrap only). */
  tmpBytes: number;
  /** Size of the sandbox's private /dev/shm (bubblewrap only; never above memoryBytes). */
  sharedMemoryBytes: number;
  /** Where per-command cgroups are made (`memory.max` = memoryBytes, `pids.max` = processes); absent: rlimits only. */
  cgroups?: CgroupHost;
}

let warned = false;
let cgroupWarned = false;

/** The per-command cgroup host, or undefined with a warning (once) saying why memory is limited per process only. */
function cgroupHost(): CgroupHost | undefined {
  const host = detectCgroupHost();
  if (!("unavailable" in host)) return host;
  if (!cgroupWarned) {
    cgroupWarned = true;
    process.emitWarning(
      `@skillgraph/shell: no cgroup can be made per command here (${host.unavailable}); memory is limited per process (RLIMIT_DATA) only, so shared memory, memfd and forked processes are not counted together`,
    );
  }
  return undefined;
}

/**
 * Checks the `limits` option and finds `prlimit`. Explicit limits without `prlimit` are an error (they would silently
 * not apply); the defaults without it only warn once.
 */
export function resolveLimits(option: CommandLimitsOption | undefined): CommandLimits | undefined {
  const checked = parseOptions(commandLimitsOptionSchema, option ?? {}, "limits");
  if (checked === false) return undefined;
  const { cgroup, ...values } = checked;
  const prlimitPath = resolveExecutable("prlimit");
  if (!prlimitPath) {
    if (option !== undefined) {
      throw new InvalidOptionsError({
        option: "limits",
        value: option,
        message:
          "util-linux 'prlimit' is not installed, so limits cannot be applied (pass limits: false to run without)",
      });
    }
    if (!warned) {
      warned = true;
      process.emitWarning(
        "@skillgraph/shell: util-linux 'prlimit' not found; commands run without memory, process and file-size limits",
      );
    }
    return undefined;
  }
  const cgroups = cgroup ? cgroupHost() : undefined;
  return { prlimitPath, ...values, ...(cgroups ? { cgroups } : {}) };
}

/** The argv prefix that runs a command under the limits. */
export function limitsPrefix(limits: CommandLimits | undefined): string[] {
  if (!limits) return [];
  return [
    limits.prlimitPath,
    `--data=${limits.memoryBytes}`,
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileSizeBytes}`,
    `--nofile=${limits.openFiles}`,
    "--core=0",
    "--",
  ];
}
