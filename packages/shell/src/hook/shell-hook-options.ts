import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseStore } from "@langchain/langgraph";
import type { ArtifactQuota, ArtifactStore } from "../artifacts/artifact-store.js";
import type { SkillEnvironmentOptions } from "../environments/skill-environments.js";
import type { CommandExecutor } from "../executor/executor-types.js";
import type { ApprovalRule } from "../policy/approval-types.js";
import type { CommandLimitsOption } from "../executor/command-limits.js";
import type { BubblewrapExecutorOptions } from "../executor/bubblewrap-executor.js";
import type { ShellSkillCatalog } from "./skills-tool-hook.js";

/** Names of the tools the shell hook contributes. */
export type ShellToolName =
  | "run_skill_script"
  | "shell"
  | "shell_session_write"
  | "shell_session_poll"
  | "shell_session_kill";

export type { ApprovalCandidate, ApprovalCommand, ApprovalRule } from "../policy/approval-types.js";

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
  /**
   * What an "always" answer should remember: tool, skill, the files the line runs (resolved), the line as typed and
   * its cwd. Approving one skill's `scripts/run.sh` this way never approves another skill's script of the same name.
   * Absent on requests an "always" answer cannot cover (installing a skill's requirements).
   */
  key?: string;
  /** Pieces of the line that cannot be judged before running (why approval is asked even without a matching rule). */
  opaque?: Array<{ piece: string; message: string }>;
}

/** Options of {@link createShellHook}. */
export interface ShellHookOptions {
  /** Where skills are found (their folder and allowed-tools). SkillCatalog / SkillRegistry from core fit. */
  skills: ShellSkillCatalog;
  /**
   * Where commands run. `bubblewrap` is a sandbox (Linux): the command sees only /usr, the skill folder (read-only) and
   * the workspace. `local` is NOT a sandbox: commands run as this process's user with its file-system and network
   * access (each in its own PID namespace where `unshare` works); choose it only for trusted models and skills.
   * `auto` = bubblewrap when it works here, else local with a warning.
   * @default "auto"
   */
  executor?: "auto" | "local" | "bubblewrap" | CommandExecutor;
  /** Options of the bubblewrap executor (bwrap path, network, extra read-only paths). */
  bubblewrap?: BubblewrapExecutorOptions;
  /**
   * Folder holding one workspace per thread (`<root>/thread-<hash>/`); kept across processes, so a resumed thread finds
   * its files. @default a private folder under the OS temp dir, made on first use and removed by `dispose()` and at exit
   */
  workspaceRoot?: string;
  /** Delete a thread's workspace in `dispose(threadId)`. @default false (workspaces live across runs of a thread) */
  removeWorkspacesOnDispose?: boolean;
  /** Remove a thread's workspace once unused for this long (swept when another one is used). @default no limit */
  workspaceMaxAgeMs?: number;
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
  /**
   * Which command lines run. `full`: any bash line (pipes, lists, redirections, substitutions, loops, functions) whose
   * every command passes every rule; it runs as `bash --noprofile --norc -c`. `simple`: one program with plain
   * arguments only. @default "full"
   */
  shellSyntax?: "full" | "simple";
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
  /**
   * The environment of every command is an allow-list: the runtime's own fixed names (PATH, HOME, TMPDIR, WORKSPACE,
   * OUT_DIR, SKILL_DIR, SKILL_NAME, LANG, git and Python hardening) plus `set`, plus the names in `allow` that a tool
   * call may set. Nothing is inherited from this process.
   */
  environment?: {
    /** Names a tool call may set in `env` (or as `env NAME=value`). @default ["TZ", "NO_COLOR", "COLUMNS", "LINES"] */
    allow?: readonly string[];
    /** Fixed values every command gets (e.g. a proxy setting). Reserved names (PATH, HOME, ...) are refused. */
    set?: Readonly<Record<string, string>>;
  };
  /**
   * Resource limits of each command (applied with util-linux `prlimit` per process and, where the host allows it, a
   * cgroup per command: `memory.max` = memoryBytes and `pids.max` = processes for the whole tree, shared memory
   * included; a warning says when no cgroup can be made). `false` turns them off. Without a cgroup, the process count
   * is a per-user limit the kernel does not enforce for root. `sharedMemoryBytes` sizes bubblewrap's /dev/shm.
   * @default { memoryBytes: 4 GiB, processes: 512, fileSizeBytes: 1 GiB, openFiles: 1024, tmpBytes: 512 MiB, sharedMemoryBytes: 64 MiB }
   */
  limits?: CommandLimitsOption;
  /**
   * Artifacts: outputs saved beyond the workspace (`outputs.save_as_artifacts`) and staged later (`artifact://name`).
   * `store` is a LangGraph `BaseStore` or an {@link ArtifactStore}. @default the graph's store (`compile({ store })`,
   * the Agent Server's store) when the run has one; `false` turns artifacts off. `quota` bounds each thread's
   * artifacts in a `BaseStore` (default 64 MiB and 256 versions).
   */
  artifacts?: false | { store?: BaseStore | ArtifactStore; maxBytes?: number; quota?: ArtifactQuota };
  /**
   * Per-skill environments: a skill with a `requirements.txt` (or `scripts/requirements.txt`) gets a Python venv of
   * its own, outside its read-only folder, cached by content, used by `run_skill_script` (first on PATH). The install
   * asks for approval through `interrupt()` (`approve`), runs in the executor with the network on for the install
   * only, and accepts plain package specifiers only. `false` turns environments off (such skills run without them).
   * @default {} (on, approve: "interrupt")
   */
  skillEnvironments?: false | SkillEnvironmentOptions;
  /**
   * Host folders a call may copy files from with `host://<name>/<path>` inputs, by name (e.g. `{ data: "/srv/data" }`).
   * Read-only: files are copied into the workspace through the confined, no-follow walk; nothing else of the host is
   * reachable. @default {} (no host folders)
   */
  hostInputs?: Readonly<Record<string, string>>;
  /** Stage files the user attached to the conversation into `in/attachments/` before each command. @default true */
  stageAttachments?: boolean;
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
