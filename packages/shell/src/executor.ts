// @skillgraph/shell/executor (for integrations): the contract a custom executor implements (a container, a remote
// runner) and the paths a sandboxed command sees.
export type {
  CommandExecutor,
  CommandView,
  ExecutionRequest,
  ExecutionResult,
  RunningCommand,
} from "./executor/executor-types.js";
export { SANDBOX_SKILL_DIR, SANDBOX_WORKSPACE } from "./executor/bubblewrap-executor.js";
