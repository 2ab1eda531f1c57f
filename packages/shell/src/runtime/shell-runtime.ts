import type { CompiledApprovalRule } from "../policy/approval-rules.js";
import type { CommandPolicy } from "../policy/command-policy.js";
import type { ResolvedArtifacts } from "../artifacts/artifact-options.js";
import type { CommandExecutor } from "../executor/executor-types.js";
import type { CommandLimits } from "../executor/command-limits.js";
import type { ShellHookOptions, ShellToolName } from "../options/shell-hook-options.js";
import type { ShellSkillCatalog } from "../options/skills-tool-hook.js";
import type { SessionStore } from "../sessions/session-store.js";
import type { ThreadWorkspaces } from "../workspace/thread-workspaces.js";

/**
 * Everything the shell tools share, built once from the options, in three parts: the settings fixed by the options
 * (`config`), the components that do the work (`services`), and what the shell remembers per thread (`threads`).
 */
export interface ShellRuntime {
  config: ShellConfig;
  services: ShellServices;
  threads: ShellThreadState;
}

/**
 * The part of the runtime one stage uses: the settings, services and per-thread maps it names, so a stage's signature
 * says what it reads (and a test can hand it just that). Pass the runtime itself; it has every part.
 */
export interface RuntimeView<
  C extends keyof ShellConfig = never,
  S extends keyof ShellServices = never,
  T extends keyof ShellThreadState = never,
> {
  config: Pick<ShellConfig, C>;
  services: Pick<ShellServices, S>;
  threads: Pick<ShellThreadState, T>;
}

/** The components the shell tools share: the skills, the executor, the command policy, workspaces and sessions. */
export interface ShellServices {
  catalog: ShellSkillCatalog;
  executor: CommandExecutor;
  policy: CommandPolicy;
  workspaces: ThreadWorkspaces;
  sessions: SessionStore;
}

/** What the shell remembers per thread in this process; each map is keyed by thread id. */
export interface ShellThreadState {
  /** Artifact versions pinned by `pin: true` inputs. */
  pinnedArtifacts: Map<string, Map<string, number>>;
  /** sha256 of attachments already staged. */
  stagedAttachments: Map<string, Set<string>>;
  /** Loaded skill names `authorize` last saw. */
  seenLoaded: Map<string, readonly string[]>;
}

/** The settings fixed by the shell's options, with their defaults filled in. */
export interface ShellConfig {
  sessionsEnabled: boolean;
  maxSessionsPerThread: number;
  maxUnreadBytes: number;
  approvalRules: readonly CompiledApprovalRule[];
  requireSkillRead: boolean;
  checkRequirements: boolean;
  timeoutMs: number;
  maxTimeoutMs: number;
  killGraceMs: number;
  maxOutputBytes: number;
  killAfterOutputBytes: number;
  outputFiles: { maxFiles: number; maxFileBytes: number; inlineTextBytes: number };
  alwaysVisible: ReadonlySet<ShellToolName>;
  removeWorkspacesOnDispose: boolean;
  loadedSkills: ShellHookOptions["loadedSkills"];
  agentId: string;
  /** Fixed environment values from `environment.set`. */
  fixedEnv: Readonly<Record<string, string>>;
  /** Resource limits per command, or undefined when turned off. */
  limits: CommandLimits | undefined;
  /** Artifacts: `false` when off; else a fixed store, or undefined to use the graph's store. */
  artifacts: ResolvedArtifacts;
  stageAttachments: boolean;
  /** Per-skill environments, or undefined when off. */
  skillEnvironments:
    | { root: string; approve: "interrupt" | "always" | "never"; pipArgs: readonly string[]; installTimeoutMs: number }
    | undefined;
  /** Host folders `host://<name>/...` inputs may copy from, by name. */
  hostInputs: ReadonlyMap<string, string>;
}
