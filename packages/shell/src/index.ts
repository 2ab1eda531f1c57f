// @skillgraph/shell: what an app uses — the shell hook (run skill scripts and commands, hardened against a hostile
// model), its executors, approval rules and artifacts. The contract for writing your own executor is on /executor
// (see "Package entry points" in the README).
export { createShellHook } from "./hook/create-shell-hook.js";
export type { ShellHook } from "./hook/create-shell-hook.js";
export type {
  ApprovalCandidate,
  ApprovalRule,
  ShellApprovalRequest,
  ShellHookOptions,
  ShellToolName,
} from "./hook/shell-hook-options.js";
export type { StagedFile } from "./workspace/thread-workspaces.js";
export { createLocalExecutor } from "./executor/local-executor.js";
export type { LocalExecutorOptions } from "./executor/local-executor.js";
export { createBubblewrapExecutor } from "./executor/bubblewrap-executor.js";
export type { BubblewrapExecutorOptions } from "./executor/bubblewrap-executor.js";
export { BubblewrapUnavailableError } from "./errors/bubblewrap-unavailable-error.js";
export { skillCommandGrant } from "./policy/command-rules.js";
export type { SkillCommandGrant } from "./policy/command-rules.js";
export { DEFAULT_DENIED_PROGRAMS } from "./policy/command-policy.js";
export { artifactStoreFromBaseStore } from "./artifacts/artifact-store.js";
export type { Artifact, ArtifactStore } from "./artifacts/artifact-store.js";
