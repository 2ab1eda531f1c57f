import type { CommandRule } from "./command-rules.js";

/** The resolved rules every command is checked against (built once by the hook factory). */
export interface CommandPolicy {
  /** When set, only commands matching one of these (or a loaded skill's `Bash(...)` grant) run. */
  allow?: readonly CommandRule[];
  /** Commands matching one of these never run (checked on the typed name and on the resolved file's name). */
  deny: readonly CommandRule[];
  /** PATH used to resolve program names. */
  fixedPath: string;
  /** Refuse arguments that name paths outside the workspace and the skill folder. */
  confinePaths: boolean;
  /** Absolute paths arguments may name besides the workspace and skill folder (e.g. /dev/null). */
  readablePaths: readonly string[];
  /** Run commands through `/bin/sh -c` instead of the strict parser (only allowed when no allow/deny list is set). */
  allowShellSyntax: boolean;
  /** Environment variable names a tool call may set (in `env` or as `env NAME=value`). */
  envAllow: ReadonlySet<string>;
}

/**
 * Environment variables a tool call may set when the application names no others. Everything else is refused: the
 * environment is an allow-list, because a deny-list always misses one (GIT_CONFIG_PARAMETERS, PERLLIB, SHELL...).
 */
export const DEFAULT_ALLOWED_ENV_NAMES: readonly string[] = ["TZ", "NO_COLOR", "COLUMNS", "LINES"];

/** Names the runtime itself sets; an application cannot hand them to the model. */
export const RESERVED_ENV_NAMES: ReadonlySet<string> = new Set([
  "PATH",
  "HOME",
  "TMPDIR",
  "SHELL",
  "WORKSPACE",
  "OUT_DIR",
  "WORKSPACE_DIR",
  "WORK_DIR",
  "OUTPUT_DIR",
  "SKILL_DIR",
  "SKILL_NAME",
  "LANG",
  "LC_ALL",
]);

/** Programs denied unless the caller passes its own `deny` list. */
export const DEFAULT_DENIED_PROGRAMS: readonly string[] = [
  "sudo",
  "su",
  "doas",
  "pkexec",
  "chroot",
  "nsenter",
  "unshare",
  "mount",
  "umount",
  "bwrap",
  "reboot",
  "shutdown",
  "poweroff",
  "halt",
  "mkfs",
  "kill",
  "killall",
  "pkill",
  "runuser",
  "setpriv",
  "capsh",
  "prlimit",
];
