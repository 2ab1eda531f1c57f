import { integerOption, InvalidOptionsError } from "../internal/core.js";
import { resolveExecutable } from "../policy/program-resolution.js";

/** The `limits` option: `false` turns limits off; each value is optional (defaults in {@link resolveLimits}). */
export type CommandLimitsOption =
  | false
  | { memoryBytes?: number; processes?: number; fileSizeBytes?: number; openFiles?: number; tmpBytes?: number };

/** Resource limits of one command, applied by util-linux `prlimit` (and the sandbox's /tmp size under bubblewrap). */
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
}

const GIB = 1024 ** 3;
const DEFAULTS = {
  memoryBytes: 4 * GIB,
  processes: 512,
  fileSizeBytes: GIB,
  openFiles: 1024,
  tmpBytes: 512 * 1024 ** 2,
};
const MAXIMUMS = {
  memoryBytes: 1024 * GIB,
  processes: 1_000_000,
  fileSizeBytes: 1024 * GIB,
  openFiles: 1_048_576,
  tmpBytes: 1024 * GIB,
};

let warned = false;

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
  return { prlimitPath, ...values };
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
