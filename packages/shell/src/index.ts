export { createShellHook } from "./hook/create-shell-hook.js";
export type { ShellHook } from "./hook/create-shell-hook.js";
export type {
  ApprovalCandidate,
  ApprovalRule,
  ShellApprovalRequest,
  ShellHookOptions,
  ShellToolName,
} from "./hook/shell-hook-options.js";
export type {
  ShellSkillCatalog,
  SkillsToolAuthorization,
  SkillsToolHook,
  SkillsToolHookContext,
} from "./hook/skills-tool-hook.js";
export { createLocalExecutor } from "./executor/local-executor.js";
export { createBubblewrapExecutor, SANDBOX_SKILL_DIR, SANDBOX_WORKSPACE } from "./executor/bubblewrap-executor.js";
export type { BubblewrapExecutorOptions } from "./executor/bubblewrap-executor.js";
export type {
  CommandExecutor,
  CommandView,
  ExecutionRequest,
  ExecutionResult,
  RunningCommand,
} from "./executor/executor-types.js";
export { BubblewrapUnavailableError } from "./errors/bubblewrap-unavailable-error.js";
export { parseShellWords } from "./command/parse-shell-words.js";
export type { ParseShellWordsOptions, ShellWordsRefusal, ShellWordsResult } from "./command/parse-shell-words.js";
export { skillCommandGrant } from "./policy/command-rules.js";
export type { SkillCommandGrant } from "./policy/command-rules.js";
export { DEFAULT_DENIED_PROGRAMS } from "./policy/command-policy.js";
export { DEFAULT_FIXED_PATH } from "./policy/program-resolution.js";
export type { RefusalReason } from "./policy/refusal.js";
export { requiredBinaries } from "./requirements/required-binaries.js";
export { detectMimeType } from "./workspace/detect-mime-type.js";
export type { StagedFile } from "./workspace/thread-workspaces.js";
export { artifactStoreFromBaseStore } from "./artifacts/artifact-store.js";
export type { Artifact, ArtifactStore } from "./artifacts/artifact-store.js";
export { conversationAttachments } from "./workspace/conversation-attachments.js";
export type { ConversationAttachment } from "./workspace/conversation-attachments.js";
export type { InputSpec } from "./workspace/input-sources.js";
export { createLocalExecutor as createUnsafeLocalExecutor } from "./executor/local-executor.js";
export type { LocalExecutorOptions } from "./executor/local-executor.js";
