// @skillgraph/core/agent-file: declarative agent files (skillgraph.agent.yaml / package.json "skillgraph"), as
// `skillgraph chat` reads them.
export {
  loadAgentFile,
  AGENT_FILE_NAMES,
  AgentFileError,
  type AgentFile,
  type AgentApprovalPolicy,
  type AgentShellExecutor,
} from "./agent-file/index.js";
