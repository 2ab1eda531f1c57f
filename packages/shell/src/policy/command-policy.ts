import type { CommandRule } from "./command-rule.js";

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
}

/** Environment variable names a tool call may never set: they change which code runs. */
export const FORBIDDEN_ENV_NAMES: readonly RegExp[] = [
  /^PATH$/,
  /^LD_/,
  /^DYLD_/,
  /^NODE_OPTIONS$/,
  /^NODE_PATH$/,
  /^BASH_ENV$/,
  /^ENV$/,
  /^IFS$/,
  /^SHELLOPTS$/,
  /^PYTHON(PATH|STARTUP|HOME|INSPECT)$/,
  /^PERL5(OPT|LIB)$/,
  /^RUBYOPT$/,
  /^GIT_(EXEC_PATH|SSH|SSH_COMMAND|CONFIG_GLOBAL|ASKPASS)$/,
  /^HOME$/,
  /^SKILL_DIR$/,
  /^WORKSPACE$/,
  /^OUT_DIR$/,
  /^SKILLGRAPH_/,
];

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
];
