// What one chat run uses, from its flags and its agent file (`--agent`): flags win over the file, the file over the
// defaults. No I/O.
import type { AgentFile } from "@skillgraph/core/agent-file";
import { createMemoryTools } from "@skillgraph/langgraph";
import { modelParameters } from "../agents/agent-store.js";
import { agentFileEndpoint, resolveChatEndpoint, type ChatEndpoint } from "./chat-endpoint.js";
import type { ChatOptions } from "./chat-options.js";
import type { ChatApprovalPolicy, ChatShell } from "./chat-shell.js";
import type { ChatAgentOptions } from "./create-chat-agent.js";
import type { ApprovalMode } from "./run-chat-exchange.js";

/** What one chat run uses, each setting from the flags, else the agent file, else the default. */
export interface ChatSettings {
  /** The model endpoint (undefined when none is configured): `--base-url`/`--model`, the file's model, the environment. */
  endpoint: ChatEndpoint | undefined;
  /** The skill folders to read: `--skills` first, then the agent file's. */
  skillFolders: string[];
  /**
   * How skill scripts run: `--unsafe-local` or the file's executor; `--shell` or the file's `alwaysOn`; which commands
   * ask (`shell.approval: ask` asks for every command its skill does not pre-approve, else only what leaves the sandbox).
   */
  shell: { unsafeLocal: boolean; off: boolean; alwaysOn: boolean; approval: ChatApprovalPolicy };
  /** The system prompt, `--system` or the file's (undefined: the default). */
  systemPrompt: string | undefined;
  /** The model client's settings: the timeout (one retry) and the file's sampling parameters. */
  model: { timeoutMs: number | undefined; maxRetries: number } & ReturnType<typeof modelParameters>;
  /**
   * How a one-shot run answers commands that need approval: `--approve-all`, `--deny-all`, the file's `shell.approval`
   * when it is one of those, else refuse with a notice naming --approve-all.
   */
  oneShotApproval: ApprovalMode;
}

/** Merges the flags and the agent file (`--agent`) into the settings of one chat run. */
export function chatSettings(
  options: ChatOptions,
  agentFile: AgentFile | undefined,
  env: NodeJS.ProcessEnv,
): ChatSettings {
  const executor = agentFile?.shell?.executor;
  const fromFile = agentFile?.shell?.approval;
  return {
    endpoint: resolveChatEndpoint(
      { baseURL: options.baseURL, model: options.model ?? agentFile?.model?.name },
      env,
      agentFileEndpoint(agentFile, options.trustAgentEndpoint),
    ),
    skillFolders: [...options.skills, ...(agentFile?.skills ?? [])],
    shell: {
      unsafeLocal: options.unsafeLocal || executor === "unsafe-local",
      off: executor === "off" && !options.unsafeLocal,
      alwaysOn: options.shell || agentFile?.shell?.alwaysOn === true,
      approval: fromFile === "ask" ? "ask" : "sandboxed",
    },
    systemPrompt: options.system ?? agentFile?.systemPrompt,
    model: { timeoutMs: options.timeoutMs, maxRetries: 1, ...modelParameters(agentFile) },
    oneShotApproval: options.approveAll
      ? "approve-all"
      : options.denyAll
        ? "deny-all"
        : fromFile === "approve-all" || fromFile === "deny-all"
          ? fromFile
          : "deny-default",
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
