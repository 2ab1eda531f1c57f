// @skillgraph/shell: what an app uses — the shell hook and the shell middleware (run skill scripts and commands,
// hardened against a hostile model), its executors (and the contract for writing your own), approval rules and
// artifacts. Every type the functions below take or return is exported here (or, for core's types, by @skillgraph/core).
export { createShellHook } from "./hook/create-shell-hook.js";
export type { ShellHook } from "./hook/create-shell-hook.js";
/** The shell as a `createAgent` middleware, composed beside `createSkillsMiddleware` (same runtime as the hook). */
export { createShellMiddleware } from "./middleware/create-shell-middleware.js";
export type { ShellMiddleware } from "./middleware/create-shell-middleware.js";
export type { ShellHandles } from "./hook/shell-toolkit.js";
export type {
  ApprovalCandidate,
  ApprovalCommand,
  ApprovalRule,
  ShellApprovalRequest,
  ShellHookOptions,
  ShellToolName,
} from "./options/shell-hook-options.js";
export type { ShellSkillCatalog } from "./options/skills-tool-hook.js";
export { invisibleCharacters, showInvisibleCharacters } from "./policy/invisible-characters.js";
export type { StagedFile } from "./workspace/thread-workspaces.js";
export { createLocalExecutor } from "./executor/local-executor.js";
export type { LocalExecutorOptions } from "./executor/local-executor.js";
export { createBubblewrapExecutor } from "./executor/bubblewrap-executor.js";
export type { BubblewrapExecutorOptions } from "./executor/bubblewrap-executor.js";
export type { RepositoryOptionsInput } from "./repository/repository-options.js";
export type {
  CommandExecutor,
  CommandView,
  ExecutionRequest,
  ExecutionResult,
  LimitExceeded,
  RunningCommand,
} from "./executor/executor-types.js";
export type { CommandLimits, CommandLimitsOption } from "./executor/command-limits.js";
export type { CgroupHost } from "./executor/cgroup-host.js";
export type { SkillEnvironmentOptions } from "./environments/skill-environments.js";
export { installSkillPythonEnvironment, skillPythonEnvironment } from "./environments/install-skill-python.js";
export type {
  SkillPythonEnvironment,
  SkillPythonEnvironmentOptions,
  SkillPythonSource,
} from "./environments/install-skill-python.js";
export { BubblewrapUnavailableError } from "./errors/bubblewrap-unavailable-error.js";
export { RepositoryScanError } from "./errors/repository-scan-error.js";
export { skillCommandGrant } from "./policy/command-rules.js";
export type { ExecTimeRules, ProgramStart, ProgramStartDecision, RefusedStart } from "./policy/exec-time-rules.js";
export type { CommandRule, SkillCommandGrant } from "./policy/command-rules.js";
export { DEFAULT_DENIED_PROGRAMS } from "./policy/command-policy.js";
export { artifactStoreFromBaseStore } from "./artifacts/artifact-store.js";
export type { Artifact, ArtifactQuota, ArtifactStore } from "./artifacts/artifact-store.js";
export { ArtifactQuotaError } from "./artifacts/artifact-quota-error.js";
