/** Where the chat model lives: an OpenAI-compatible endpoint, its key and the model name. */
export interface ChatEndpoint {
  /** Base URL ending in `/v1`; undefined means api.openai.com. */
  baseURL: string | undefined;
  apiKey: string;
  model: string;
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
 * The endpoint from flags and environment, or undefined when neither a base URL nor an API key is set.
 * Flags win over OPENAI_BASE_URL / OPENAI_API_KEY / SKILLGRAPH_MODEL.
 */
export function resolveChatEndpoint(
  flags: { baseURL?: string | undefined; model?: string | undefined },
  env: NodeJS.ProcessEnv,
): ChatEndpoint | undefined {
  const baseURL = nonEmpty(flags.baseURL) ?? nonEmpty(env.OPENAI_BASE_URL);
  const apiKey = nonEmpty(env.OPENAI_API_KEY);
  if (baseURL === undefined && apiKey === undefined) return undefined;
  return {
    baseURL,
    apiKey: apiKey ?? PLACEHOLDER_API_KEY,
    model: nonEmpty(flags.model) ?? nonEmpty(env.SKILLGRAPH_MODEL) ?? DEFAULT_CHAT_MODEL,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
