import type { RunnableConfig } from "@langchain/core/runnables";
import type { CommandExecutor } from "../executor/executor-types.js";
import type { BubblewrapExecutorOptions } from "../executor/bubblewrap-executor.js";
import type { ShellSkillCatalog } from "./skills-tool-hook.js";

/** Names of the tools the shell hook contributes. */
export type ShellToolName = "run_skill_script" | "shell" | "shell_session_write" | "shell_session_poll" | "shell_session_kill";

/** What an approval rule is matched against. */
export interface ApprovalCandidate {
  tool: "run_skill_script" | "shell";
  skill?: string;
  /** argv as typed (argv[0] reduced to the program name). */
  argv: readonly string[];
  /** The command line, normalized. */
  command: string;
}

/** A `requireApproval` rule: a command prefix (`git push`, `rm`), a RegExp over the command line, or a predicate. */
export type ApprovalRule = string | RegExp | ((candidate: ApprovalCandidate) => boolean);

/** The payload of the `interrupt()` raised for a command needing approval. Resume with `{ approved: true }`. */
export interface ShellApprovalRequest {
  type: "skillgraph/shell-approval";
  tool: "run_skill_script" | "shell";
  skill?: string;
  command: string;
  argv: string[];
  /** Working directory relative to the workspace. */
  cwd: string;
  executor: string;
}

/** Options of {@link createShellHook}. */
export interface ShellHookOptions {
  /** Where skills are found (their folder and allowed-tools). SkillCatalog / SkillRegistry from core fit. */
  catalog: ShellSkillCatalog;
  /** `auto` = bubblewrap when available on Linux, else local. @default "auto" */
  executor?: "auto" | "local" | "bubblewrap" | CommandExecutor;
  /** Options of the bubblewrap executor (bwrap path, network, extra read-only paths). */
  bubblewrap?: BubblewrapExecutorOptions;
  /** Folder holding one workspace per thread. @default a new folder under the OS temp dir */
  workspaceRoot?: string;
  /** Delete a thread's workspace in `dispose(threadId)`. @default false (workspaces live across runs of a thread) */
  removeWorkspacesOnDispose?: boolean;
  /** When set, only these commands run (prefixes like `git status`, `python3`; `:*` suffix allowed), plus loaded skills' `Bash(...)` grants. */
  allow?: readonly string[];
  /** Commands that never run. @default DEFAULT_DENIED_PROGRAMS (sudo, su, mount, kill, ...) */
  deny?: readonly string[];
  /** Commands that need a human's approval through LangGraph `interrupt()` (needs a checkpointer). */
  requireApproval?: readonly ApprovalRule[];
  /** A skill's scripts run only once the skill was read (loaded). @default true */
  requireSkillRead?: boolean;
  /** Check the programs a skill declares it needs before running its scripts. @default true */
  checkRequirements?: boolean;
  /** Run commands with `/bin/sh -c` (pipes, redirections). Not allowed with `allow`/`deny`. @default false */
  allowShellSyntax?: boolean;
  /** Refuse arguments naming paths outside the workspace and the skill folder. @default true */
  confinePaths?: boolean;
  /** Absolute paths arguments may always name. @default ["/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/dev/stdin", "/dev/stdout", "/dev/stderr"] */
  readablePaths?: readonly string[];
  /** PATH programs are resolved from (never the environment's). @default "/usr/local/bin:/usr/bin:/bin" */
  fixedPath?: string;
  /** Default timeout of a command. @default 300000 (5 minutes) */
  timeoutMs?: number;
  /** Largest timeout a tool call may ask for. @default 600000 */
  maxTimeoutMs?: number;
  /** Time between SIGTERM and SIGKILL when a command is stopped. @default 2000 */
  killGraceMs?: number;
  /** stdout and stderr each keep this many bytes (head and tail). @default 16384 */
  maxOutputBytes?: number;
  /** Kill a command once stdout + stderr exceed this. @default 67108864 (64 MiB) */
  killAfterOutputBytes?: number;
  /** Caps of the `out/` files reported after a run. */
  outputFiles?: { maxFiles?: number; maxFileBytes?: number; inlineTextBytes?: number };
  /** Interactive sessions (start with `interactive: true`, then write/poll/kill). @default { maxPerThread: 4 } */
  sessions?: false | { maxPerThread?: number; maxUnreadBytes?: number };
  /** Tools visible whatever skills are loaded: `true` = all. @default false (visible when a loaded skill asks for them) */
  alwaysVisible?: boolean | readonly ShellToolName[];
  /**
   * Which skills are loaded, as seen from inside the tool (defensive re-check). @default reads the graph state's
   * `skillgraph[agentId].load.loaded` (or a `loadedSkills` array), else what `authorize` last saw for the thread.
   */
  loadedSkills?: (context: { state: unknown; config: RunnableConfig }) => readonly string[] | undefined;
  /** Agent whose loaded skills the default `loadedSkills` reads. @default "default" */
  agentId?: string;
}
