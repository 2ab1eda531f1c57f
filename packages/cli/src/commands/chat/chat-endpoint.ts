import { redactUrl } from "@skillgraph/checkpoint";

/** Where the chat model lives: an OpenAI-compatible endpoint, its key and the model name. */
export interface ChatEndpoint {
  /** Base URL ending in `/v1`; undefined means api.openai.com. */
  baseURL: string | undefined;
  apiKey: string;
  model: string;
  /** Set when OPENAI_API_KEY was held back from an agent file's endpoint: what to tell the user. */
  warning?: string;
}

/** The flag that lets an agent file's `model.baseUrl` receive OPENAI_API_KEY. */
export const TRUST_AGENT_ENDPOINT_FLAG = "--trust-agent-endpoint";

/** An agent file's model endpoint, and whether the user said it may receive OPENAI_API_KEY. */
export interface AgentFileEndpoint {
  /** The agent file (for messages). */
  file: string;
  baseURL: string | undefined;
  /** The user passed `--trust-agent-endpoint`. */
  trusted: boolean;
}

/** Model used when neither `--model` nor SKILLGRAPH_MODEL is given. */
export const DEFAULT_CHAT_MODEL = "gpt-4o-mini";

/** Key sent to a custom endpoint when OPENAI_API_KEY is unset (local servers such as Ollama or vLLM ignore it). */
export const PLACEHOLDER_API_KEY = "not-needed";

/** What to print when no endpoint is configured: names both variables and what each one is for. */
export const NO_ENDPOINT_MESSAGE = [
  "skillgraph chat: no model endpoint configured.",
  "Set one of:",
  "  OPENAI_BASE_URL  an OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 (Ollama) or http://localhost:8000/v1 (vLLM)",
  "  OPENAI_API_KEY   an API key for api.openai.com (or for the endpoint in OPENAI_BASE_URL)",
  "and optionally SKILLGRAPH_MODEL (or --model) to pick the model (default gpt-4o-mini).",
  "",
].join("\n");

/**
 * The endpoint from flags, the agent file and environment, or undefined when neither a base URL nor an API key is set.
 * Flags win over the agent file, which wins over OPENAI_BASE_URL; the model is `--model`, the file's, SKILLGRAPH_MODEL.
 * The user's OPENAI_API_KEY is theirs: an endpoint named only by an agent file (a file from a repository, a colleague)
 * gets the placeholder key and a warning, unless the user passed `--trust-agent-endpoint` or the file names the same
 * endpoint as OPENAI_BASE_URL.
 */
export function resolveChatEndpoint(
  flags: { baseURL?: string | undefined; model?: string | undefined },
  env: NodeJS.ProcessEnv,
  agentFile?: AgentFileEndpoint,
): ChatEndpoint | undefined {
  const envBaseURL = nonEmpty(env.OPENAI_BASE_URL);
  const fileBaseURL = nonEmpty(agentFile?.baseURL);
  const baseURL = nonEmpty(flags.baseURL) ?? fileBaseURL ?? envBaseURL;
  const apiKey = nonEmpty(env.OPENAI_API_KEY);
  if (baseURL === undefined && apiKey === undefined) return undefined;
  const model = nonEmpty(flags.model) ?? nonEmpty(env.SKILLGRAPH_MODEL) ?? DEFAULT_CHAT_MODEL;
  const fromFileOnly = nonEmpty(flags.baseURL) === undefined && fileBaseURL !== undefined;
  if (
    apiKey !== undefined &&
    agentFile &&
    fromFileOnly &&
    !agentFile.trusted &&
    sameEndpoint(fileBaseURL, envBaseURL) === false
  ) {
    const warning =
      `warning: ${agentFile.file} sends model requests to ${redactUrl(fileBaseURL)}; OPENAI_API_KEY is not sent ` +
      `there (pass ${TRUST_AGENT_ENDPOINT_FLAG} to send it, or set OPENAI_BASE_URL to that endpoint)\n`;
    return { baseURL, apiKey: PLACEHOLDER_API_KEY, model, warning };
  }
  return { baseURL, apiKey: apiKey ?? PLACEHOLDER_API_KEY, model };
}

/** The endpoint an agent file names (if any file was given), trusted only when the user passed the flag. */
export function agentFileEndpoint(
  agentFile: { file: string; model?: { baseUrl?: string } } | undefined,
  trustFlag: boolean | undefined,
): AgentFileEndpoint | undefined {
  if (!agentFile) return undefined;
  return { file: agentFile.file, baseURL: agentFile.model?.baseUrl, trusted: trustFlag === true };
}

/** Two base URLs naming the same endpoint (trailing slashes aside). */
function sameEndpoint(a: string, b: string | undefined): boolean {
  return b !== undefined && a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
