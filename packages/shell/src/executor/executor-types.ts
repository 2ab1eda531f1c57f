import type { ExecTimeRules, RefusedStart } from "../policy/exec-time-rules.js";

/** One command for an executor: host paths in, the executor maps them to what the command sees. */
export interface ExecutionRequest {
  /** argv with the executable's absolute host path first (ignored when `shellCommand` is set). */
  argv: string[];
  /** A checked command line, run as `bash --noprofile --norc -c` (`argv` is then ignored). */
  shellCommand?: string;
  /** PATH of the command (host folders), the one its programs were checked on. @default "/usr/local/bin:/usr/bin:/bin" */
  searchPath?: string;
  /** Host path of the working directory (inside the workspace). */
  cwd: string;
  /** Host path of the thread's workspace (the only writable folder). */
  workspaceDir: string;
  /** Host path of the skill folder (read-only for the command under bubblewrap), when running a skill's script. */
  skillDir?: string;
  /** The skill's name (SKILL_NAME in the environment), when running a skill's script. */
  skillName?: string;
  /**
   * A per-skill environment (a Python venv) the command uses: its `bin/` goes first on PATH and VIRTUAL_ENV names it.
   * Read-only unless `writable` (only while its requirements are installed). Seen at `/env` inside the sandbox.
   */
  skillEnvironment?: { hostDir: string; writable: boolean };
  /** Host folders the command may read at the same path (e.g. a local package index). */
  readOnlyPaths?: readonly string[];
  /** Give this one command the network (installing requirements), whatever the executor's default. */
  network?: boolean;
  /**
   * Program names (a deny rule's single word) that must not start in this command, whoever starts them. Enforced only
   * by an executor that enforces at exec time (bubblewrap with `execEnforcement`); others rely on the planner's check.
   */
  deniedPrograms?: readonly string[];
  /**
   * Argument-level rules decided where programs start: every start of `execRules.programs`, whoever makes it, is
   * judged with its real argv; with `execRules.allow`, only the programs the allow list admits start at all. Enforced
   * only by bubblewrap with `execEnforcement`; others rely on the planner's check.
   */
  execRules?: ExecTimeRules;
  /** Extra environment, names already checked against the allow-list (host paths in values are mapped). Nothing else is inherited. */
  env: Readonly<Record<string, string>>;
  /** Run on a pseudo-terminal (util-linux `script`); see {@link CommandExecutor}. */
  pty?: boolean;
  /** Text written to stdin, then stdin is closed (interactive sessions keep stdin open instead). */
  stdin?: string;
  timeoutMs: number;
  /** Time between SIGTERM and SIGKILL. */
  killGraceMs: number;
  /** stdout and stderr each keep this many bytes (head + tail). */
  maxOutputBytes: number;
  /** The process tree is killed once stdout + stderr exceed this many bytes. */
  killAfterOutputBytes: number;
  /** Unique id of the run, set as SKILLGRAPH_RUN_ID in the environment: orphans are found by it in /proc. */
  runId: string;
}

/** What a finished command produced. */
export interface ExecutionResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  stdoutBytes: number;
  stderrBytes: number;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timedOut: boolean;
  /** Killed because stdout + stderr exceeded `killAfterOutputBytes`. */
  outputLimitExceeded: boolean;
  /** Killed by {@link RunningCommand.kill}. */
  killed: boolean;
  durationMs: number;
  /** Program starts the exec-time rules refused (the command saw them fail with status 126). */
  refusedStarts?: RefusedStart[];
  /** The limits of the command's cgroup it met, by the kernel's counters of that group; absent when none (or no group). */
  limitExceeded?: LimitExceeded;
}

/** Limits of a command's cgroup the kernel enforced on it (see {@link ExecutionResult.limitExceeded}). */
export interface LimitExceeded {
  /** The OOM killer of the command's group killed `oomKills` of its processes at its memory limit (`limitBytes`). */
  memory?: { limitBytes: number; oomKills: number };
  /** `refusedForks` forks of the command failed at its process limit (`limit` processes). */
  processes?: { limit: number; refusedForks: number };
}

/** A started command (interactive sessions use it directly; `run` waits for it). */
export interface RunningCommand {
  readonly pid: number;
  readonly runId: string;
  /** Resolves when the process exited and its whole tree was cleaned up. */
  readonly result: Promise<ExecutionResult>;
  readonly exited: boolean;
  /** Writes to stdin (false when stdin is closed). */
  write(data: string): boolean;
  /** Closes stdin (the process sees end of input). */
  closeStdin(): void;
  /** Subscribes to output chunks as they arrive. */
  onOutput(listener: (stream: "stdout" | "stderr", chunk: Buffer) => void): void;
  /** Kills the whole process tree (TERM, then KILL after the grace period). */
  kill(): Promise<void>;
}

/** Folder paths as the command sees them. */
export interface CommandView {
  workspaceDir: string;
  skillDir?: string;
  /** The folder holding the skill as `<skillsDir>/<skill folder's name>` (`SKILLS_DIR`). @default skillDir's parent */
  skillsDir?: string;
}

/** Runs commands somewhere: a local process group, a bubblewrap sandbox, later a container or a remote host. */
export interface CommandExecutor {
  /** e.g. `local`, `bubblewrap`. */
  readonly name: string;
  /**
   * Set by an executor that confines every command (bubblewrap): whether commands get the host network. Approvals read
   * it (a line that stays inside a sandbox without network may run unasked under the `sandboxed` approval policy).
   */
  readonly sandbox?: { readonly network: boolean };
  /** Where the workspace and skill folder appear to the command. */
  view(request: Pick<ExecutionRequest, "workspaceDir" | "skillDir">): CommandView;
  /** Starts a command; the caller must await `result` (or `kill`). */
  start(request: ExecutionRequest): RunningCommand;
  /** {@link start} with its preparation (bubblewrap: the repository scan) done in slices that yield to the event loop. */
  startAsync?(request: ExecutionRequest): Promise<RunningCommand>;
  /** Runs a command to completion. */
  run(request: ExecutionRequest): Promise<ExecutionResult>;
}
