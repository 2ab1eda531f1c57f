// The types a command check takes and returns (kept apart so the policy files need not import each other for them).
import type { ShellProblem } from "../command/shell-line-types.js";
import type { Refusal } from "./refusal.js";

/** The skill a command runs for (run_skill_script). */
export interface CommandSkill {
  name: string;
  dir: string;
  allowedTools: readonly string[];
}

/** What to check: the command line and where it runs. */
export interface CommandCheckInput {
  command: string;
  /** `skill`: run_skill_script (relative executables resolve in the skill folder); `shell`: the general shell tool. */
  mode: "skill" | "shell";
  skill?: CommandSkill;
  /** Skills loaded now: their `Bash(...)` grants extend the allow list. */
  loadedSkills: readonly CommandSkill[];
  /** Host path of the thread's workspace (need not exist yet for the pre-check). */
  workspaceDir: string;
  /** Working directory relative to the workspace. */
  cwd?: string;
  env?: Readonly<Record<string, string>>;
}

/** One simple command's argv (markers for words known only at run time) and where it runs. */
export interface ParsedCommand {
  argv: string[];
  cwd: string;
  /** The programs the command runs, outermost first (see command-layers.ts). */
  layers: string[][];
}

/** One simple command of a checked line. */
export interface CheckedCommand {
  /** argv as typed, argv[0] reduced to the program name; words known only at run time are markers. */
  argv: string[];
  /** The programs it runs, canonical (wrappers unwrapped, git's safe global options removed): for deny and approval rules. */
  layers: string[][];
  /** The same layers as typed: for allow rules, grants and "always" approvals. */
  typedLayers: string[][];
  /** The file it runs (absolute host path), or `builtin:NAME` / `function:NAME`; the typed name before resolution. */
  program: string;
  /** `script`: the skill's own script; `builtin`: a bash builtin; `function`: defined by the line; else a program. */
  kind: "program" | "script" | "builtin" | "function";
}

/** A command line ready to run with `bash -c`: the text to run, what it runs, and the opaque pieces needing approval. */
export interface CommandPlan {
  /** The line bash runs (skill script paths rewritten to `"$SKILL_DIR"/...`). */
  command: string;
  /** The line as typed: approval prompts, "always" answers and messages use it. */
  display: string;
  /** argv of the first command (argv[0] reduced to the program name). */
  programArgv: string[];
  /** Every program layer of every command, canonical. */
  layers: string[][];
  commands: CheckedCommand[];
  /** Pieces that cannot be judged before running; present only when approval rules are set (else refused). */
  opaque: ShellProblem[];
  /** Files the line reads through a redirection (`bash < w.sh`), as typed: bound into "always" approval keys. */
  redirectedFrom?: string[];
  /** Host path of the working directory. */
  cwd: string;
}

/** The result of a check: a plan, or a refusal. */
export type CommandCheck = { ok: true; plan: CommandPlan } | Refusal;
