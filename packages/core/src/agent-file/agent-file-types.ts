import type { LoadMode } from "../load-state/load-state-types.js";

/** How an agent runs skill scripts: in the sandbox, unsandboxed on this machine, or not at all. */
export type AgentShellExecutor = "sandbox" | "unsafe-local" | "off";

/** How commands that need approval are answered in runs without a person: ask (interactive), approve all, deny all. */
export type AgentApprovalPolicy = "ask" | "approve-all" | "deny-all";

/**
 * A declarative agent (`skillgraph.agent.yaml`, or the `skillgraph` key of package.json), as `loadAgentFile` returns
 * it: every path absolute (resolved against the file's folder), every field checked.
 */
export interface AgentFile {
  /** The file it came from. */
  file: string;
  model?: { name?: string; baseUrl?: string };
  systemPrompt?: string;
  /** Skill folders. */
  skills: string[];
  only?: string[];
  exclude?: string[];
  loadMode?: LoadMode;
  loadModes?: Record<string, LoadMode>;
  shell?: { executor?: AgentShellExecutor; approval?: AgentApprovalPolicy };
  /** A checkpointer URL (`sqlite:FILE`, `postgres://...`, `memory:`); a relative sqlite path is resolved against the file's folder. */
  checkpointer?: string;
}
