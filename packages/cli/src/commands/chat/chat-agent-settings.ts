// What one chat run uses, from its flags and its agent file (`--agent`): flags win over the file, the file over the
// defaults. Each function answers one question; none does any I/O.
import type { AgentFile } from "@skillgraph/core/agent-file";
import { createMemoryTools } from "@skillgraph/langgraph";
import { modelParameters } from "../agents/agent-store.js";
import { agentFileEndpoint, resolveChatEndpoint, type ChatEndpoint } from "./chat-endpoint.js";
import type { ChatOptions } from "./chat-options.js";
import type { ChatApprovalPolicy, ChatShell } from "./chat-shell.js";
import type { ChatAgentOptions } from "./create-chat-agent.js";
import type { ApprovalMode } from "./run-chat-exchange.js";

/** The model endpoint (undefined when none is configured): `--base-url`/`--model`, the file's model, the environment. */
export function chatEndpointFor(
  options: ChatOptions,
  agentFile: AgentFile | undefined,
  env: NodeJS.ProcessEnv,
): ChatEndpoint | undefined {
  return resolveChatEndpoint(
    { baseURL: options.baseURL, model: options.model ?? agentFile?.model?.name },
    env,
    agentFileEndpoint(agentFile, options.trustAgentEndpoint),
  );
}

/** The skill folders to read: `--skills` first, then the agent file's. */
export function skillFoldersFor(options: ChatOptions, agentFile: AgentFile | undefined): string[] {
  return [...options.skills, ...(agentFile?.skills ?? [])];
}

/**
 * How skill scripts run: `--unsafe-local` or the file's executor; `--shell` or the file's `alwaysOn`; which commands
 * ask (`shell.approval: ask` asks for every command its skill does not pre-approve, else only what leaves the sandbox).
 */
export function shellSettingsFor(
  options: ChatOptions,
  agentFile: AgentFile | undefined,
): { unsafeLocal: boolean; off: boolean; alwaysOn: boolean; approval: ChatApprovalPolicy } {
  const executor = agentFile?.shell?.executor;
  return {
    unsafeLocal: options.unsafeLocal || executor === "unsafe-local",
    off: executor === "off" && !options.unsafeLocal,
    alwaysOn: options.shell || agentFile?.shell?.alwaysOn === true,
    approval: agentFile?.shell?.approval === "ask" ? "ask" : "sandboxed",
  };
}

/** The skills middleware options: the shell hook, and the file's narrowing and load modes. */
export function skillsOptionsFor(
  agentFile: AgentFile | undefined,
  shell: ChatShell,
): NonNullable<ChatAgentOptions["skillsOptions"]> {
  return {
    // tama's memory tools: offered only while a skill naming them (`tools: [tama_mem_set]`) is loaded
    tools: createMemoryTools(),
    ...(shell.hook ? { hooks: [shell.hook] } : {}),
    ...(agentFile?.only ? { only: agentFile.only } : {}),
    ...(agentFile?.exclude ? { exclude: agentFile.exclude } : {}),
    ...(agentFile?.loadMode ? { loadMode: agentFile.loadMode } : {}),
    ...(agentFile?.loadModes ? { loadModes: agentFile.loadModes } : {}),
  };
}

/** The system prompt, `--system` or the file's (undefined: the default). */
export function systemPromptFor(options: ChatOptions, agentFile: AgentFile | undefined): string | undefined {
  return options.system ?? agentFile?.systemPrompt;
}

/** The model client's settings: the timeout (one retry) and the file's sampling parameters. */
export function modelSettingsFor(options: ChatOptions, agentFile: AgentFile | undefined) {
  return { timeoutMs: options.timeoutMs, maxRetries: 1, ...modelParameters(agentFile) };
}

/**
 * How a one-shot run answers commands that need approval: `--approve-all`, `--deny-all`, the file's
 * `shell.approval` when it is one of those, else refuse with a notice naming --approve-all.
 */
export function oneShotApprovalMode(options: ChatOptions, agentFile: AgentFile | undefined): ApprovalMode {
  if (options.approveAll) return "approve-all";
  if (options.denyAll) return "deny-all";
  const fromFile = agentFile?.shell?.approval;
  return fromFile === "approve-all" || fromFile === "deny-all" ? fromFile : "deny-default";
}
