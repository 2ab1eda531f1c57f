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
  /** `full`: any bash line whose every command passes; `simple`: one program with plain arguments only. */
  syntax: "full" | "simple";
  /** Pieces that cannot be judged before running ask for approval (true when approval rules are set) instead of being refused. */
  opaqueNeedsApproval: boolean;
  /**
   * The executor is no sandbox (`local`): every argument, program word or folder known only at run time, and every
   * glob that may climb out, is opaque (it may name a file outside the workspace, and nothing else stops the write).
   */
  unsandboxed?: boolean;
  /** Names the application fixes for every command (`environment.set`): a line may not assign them. */
  fixedEnvNames?: ReadonlySet<string>;
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
  "SKILLS_DIR",
  "SKILL_NAME",
  "RUN_DIR",
  "LANG",
  "LC_ALL",
  "BASH_ENV",
  "ENV",
  "IFS",
  "CDPATH",
  "SHELLOPTS",
  "BASHOPTS",
  "GLOBIGNORE",
  "PS4",
  "PROMPT_COMMAND",
  "VIRTUAL_ENV",
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
