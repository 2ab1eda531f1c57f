import { ChatOpenAI } from "@langchain/openai";
import type { ChatEndpoint } from "./chat-endpoint.js";

/**
 * A ChatOpenAI client for any OpenAI-compatible endpoint (chat completions API).
 * Stream it (`.stream()` or a LangGraph `streamMode: "messages"` run); with `streaming: true`, `.invoke()` stalls offline on a tokenizer download.
 * @param endpoint base URL, key and model name (see `resolveChatEndpoint`)
 * @param options.maxRetries retries of failed HTTP calls @default 2
 * @param options.timeoutMs how long one model request may take @default the client's (10 minutes)
 * @param options.temperature / topP / maxTokens sampling settings (an agent file's model parameters) @default the endpoint's
 */
export function createChatModel(
  endpoint: ChatEndpoint,
  options: { maxRetries?: number; temperature?: number; topP?: number; maxTokens?: number; timeoutMs?: number } = {},
): ChatOpenAI {
  return new ChatOpenAI({
    model: endpoint.model,
    apiKey: endpoint.apiKey,
    maxRetries: options.maxRetries ?? 2,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.topP === undefined ? {} : { topP: options.topP }),
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
    ...(endpoint.baseURL === undefined ? {} : { configuration: { baseURL: endpoint.baseURL } }),
  });
}
