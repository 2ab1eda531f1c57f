export { loadAgentFile, AGENT_FILE_NAMES } from "./load-agent-file.js";
export { AgentFileError } from "./agent-file-error.js";
export type { AgentFile, AgentApprovalPolicy, AgentShellExecutor } from "./agent-file-types.js";
export { parseAgentfile, isAgentfile } from "./parse-agentfile.js";
export type { AgentModelParameters } from "./model-parameters.js";
