import type { ERROR_SHAPES } from "./profiles.js";
import type { ScriptedHttpError, ScriptedStreamFailure, WireMessage } from "./types.js";

/** An HTTP answer ready to send. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type Shape = (typeof ERROR_SHAPES)[number];

/** Context-length errors as each server words them (status 400), for tests that match on the wording. */
export const CONTEXT_LENGTH_ERRORS: Record<
  NonNullable<ScriptedHttpError["contextLength"]>,
  Required<Pick<ScriptedHttpError, "shape" | "message" | "type" | "code">>
> = {
  // api.openai.com
  openai: {
    shape: "openai",
    message:
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
    type: "invalid_request_error",
    code: "context_length_exceeded",
  },
  // vLLM's serving_engine (releases answering with the bare ErrorResponse)
  vllm: {
    shape: "vllm",
    message:
      "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
    type: "BadRequestError",
    code: 400,
  },
  // llama.cpp's llama-server (server-context.cpp)
  "llama-cpp": {
    shape: "llama-cpp",
    message: "request (13392 tokens) exceeds the available context size (8192 tokens), try increasing it",
    type: "exceed_context_size_error",
    code: 400,
  },
};

const openAIType = (status: number) =>
  status === 401
    ? "authentication_error"
    : status === 429
      ? "rate_limit_exceeded"
      : status >= 500
        ? "server_error"
        : "invalid_request_error";
const vllmType = (status: number) =>
  status === 404 ? "NotFoundError" : status >= 500 ? "InternalServerError" : "BadRequestError";

/** The body a server of that shape sends for an error. */
function errorBody(shape: Shape, status: number, error: ScriptedHttpError, message: string): string {
  switch (shape) {
    case "openai":
      return JSON.stringify({
        error: { message, type: error.type ?? openAIType(status), param: null, code: error.code ?? null },
      });
    case "vllm":
      return JSON.stringify({
        object: "error",
        message,
        type: error.type ?? vllmType(status),
        param: null,
        code: error.code ?? status,
      });
    case "llama-cpp":
      return JSON.stringify({
        error: {
          code: error.code ?? status,
          message,
          type: error.type ?? "invalid_request_error",
          ...(error.contextLength === "llama-cpp" ? { n_prompt_tokens: 13392, n_ctx: 8192 } : {}),
        },
      });
    case "fastapi":
      return JSON.stringify({ detail: message });
    case "text":
      return message;
    case "empty":
      return "";
  }
}

/** The HTTP answer for a scripted error; `defaultShape` is the profile's. */
export function errorAnswer(scripted: ScriptedHttpError, defaultShape: Shape): HttpAnswer {
  const error = scripted.contextLength ? { ...CONTEXT_LENGTH_ERRORS[scripted.contextLength], ...scripted } : scripted;
  const status = error.status ?? 400;
  const shape = error.shape ?? defaultShape;
  const message = error.message ?? `scripted error ${status}`;
  const headers: Record<string, string> = {};
  if (shape === "text") headers["content-type"] = "text/plain; charset=utf-8";
  else if (shape !== "empty") headers["content-type"] = "application/json";
  if (error.retryAfter !== undefined) headers["retry-after"] = String(error.retryAfter);
  return { status, headers, body: errorBody(shape, status, error, message) };
}

/** The payload of an SSE error event: `{"error": {...}}` as OpenAI sends it, or wrapping vLLM's ErrorResponse. */
export function streamErrorPayload(failure: ScriptedStreamFailure): Record<string, unknown> {
  const status = failure.status ?? 500;
  const message = failure.message ?? "The server had an error while processing your request.";
  return failure.shape === "vllm"
    ? { error: { object: "error", message, type: vllmType(status), param: null, code: status } }
    : { error: { message, type: openAIType(status), param: null, code: status } };
}

/** api.deepseek.com's refusal of a history repeating a tool-call id (in assistant tool calls or tool results); undefined when none repeats. */
export function duplicateToolCallIdMessage(messages: readonly WireMessage[]): string | undefined {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const [index, message] of messages.entries()) {
    const ids =
      message.role === "assistant"
        ? (message.tool_calls ?? []).map((call) => ({ id: call.id, seen: calls }))
        : message.role === "tool"
          ? [{ id: message.tool_call_id ?? "", seen: results }]
          : [];
    for (const { id, seen } of ids) {
      if (seen.has(id)) return `Duplicate value for 'tool_call_id' of ${id} in message[${index}]`;
      seen.add(id);
    }
  }
  return undefined;
}
