import { integerOption, InvalidOptionsError } from "../internal/core.js";
import { resolveExecutable } from "../policy/program-resolution.js";
import { detectCgroupHost, type CgroupHost } from "./command-cgroup.js";

/** The `limits` option: `false` turns limits off; each value is optional (defaults in docs/shell.md). */
export type CommandLimitsOption =
  | false
  | {
      memoryBytes?: number;
      processes?: number;
      fileSizeBytes?: number;
      openFiles?: number;
      tmpBytes?: number;
      sharedMemoryBytes?: number;
      /** A cgroup per command where the host allows it (`false`: per-process limits only). @default true */
      cgroup?: boolean;
    };

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

const GIB = 1024 ** 3;
const DEFAULTS = {
  memoryBytes: 4 * GIB,
  processes: 512,
  fileSizeBytes: GIB,
  openFiles: 1024,
  tmpBytes: 512 * 1024 ** 2,
  sharedMemoryBytes: 64 * 1024 ** 2,
};
const MAXIMUMS = {
  memoryBytes: 1024 * GIB,
  processes: 1_000_000,
  fileSizeBytes: 1024 * GIB,
  openFiles: 1_048_576,
  tmpBytes: 1024 * GIB,
  sharedMemoryBytes: 1024 * GIB,
};

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
  if (option === false) return undefined;
  if (option !== undefined && (typeof option !== "object" || option === null)) {
    throw new InvalidOptionsError({ option: "limits", value: option, message: "must be false or an object" });
  }
  const values = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS) as Array<keyof typeof DEFAULTS>) {
    const value = option?.[key];
    if (value === undefined) continue;
    values[key] = integerOption(`limits.${key}`, value, { max: MAXIMUMS[key] });
  }
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
  const cgroupOption = option?.cgroup;
  if (cgroupOption !== undefined && typeof cgroupOption !== "boolean")
    throw new InvalidOptionsError({ option: "limits.cgroup", value: cgroupOption, message: "must be a boolean" });
  const cgroups = cgroupOption === false ? undefined : cgroupHost();
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
