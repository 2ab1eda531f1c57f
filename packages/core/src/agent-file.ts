// @skillgraph/core/agent-file: declarative agent files (skillgraph.agent.yaml / package.json "skillgraph" / an
// Ollama-style Agentfile), as
// `skillgraph chat` reads them.
export {
  loadAgentFile,
  AGENT_FILE_NAMES,
  AgentFileError,
  parseAgentfile,
  isAgentfile,
  type AgentModelParameters,
  type AgentFile,
  type AgentApprovalPolicy,
  type AgentShellExecutor,
} from "./agent-file/index.js";
