import type { LoadMode } from "../load-state/load-state-types.js";
import type { AgentModelParameters } from "./model-parameters.js";

/** How an agent runs skill scripts: in the sandbox, unsandboxed on this machine, or not at all. */
export type AgentShellExecutor = "sandbox" | "unsafe-local" | "off";

/**
 * Which commands need approval and how they are answered: `sandboxed` (the default) asks only for lines that leave the
 * sandbox, `ask` for every command its skill does not pre-approve; `approve-all` / `deny-all` answer for runs without
 * a person.
 */
export type AgentApprovalPolicy = "sandboxed" | "ask" | "approve-all" | "deny-all";

/**
 * A declarative agent (`skillgraph.agent.yaml`, the `skillgraph` key of package.json, or an Ollama-style Agentfile), as `loadAgentFile` returns
 * it: every path absolute (resolved against the file's folder), every field checked.
 */
export interface AgentFile {
  /** The file it came from. */
  file: string;
  /** The model: name, endpoint, sampling parameters (`temperature`, `topP`, `maxTokens`) and stop sequences. */
  model?: { name?: string; baseUrl?: string; stop?: string[] } & AgentModelParameters;
  /** An Agentfile's `AGENT_TYPE`: every kind runs the same tool-calling chat agent. */
  agentType?: "conversational" | "react" | "task-based";
  systemPrompt?: string;
  /** Skill folders. */
  skills: string[];
  only?: string[];
  exclude?: string[];
  loadMode?: LoadMode;
  loadModes?: Record<string, LoadMode>;
  /** How skill scripts run; `alwaysOn` offers the `shell` tool on every turn (tama's `bash`), not only once a skill asks for it. */
  shell?: { executor?: AgentShellExecutor; approval?: AgentApprovalPolicy; alwaysOn?: boolean };
  /** A checkpointer URL (`sqlite:FILE`, `postgres://...`, `memory:`); a relative sqlite path is resolved against the file's folder. */
  checkpointer?: string;
  /** Lines of an Agentfile read and ignored (`Agentfile:3: LICENSE ignored: ...`), for the caller to print. */
  ignored?: string[];
}
