import type { IncomingHttpHeaders } from "node:http";
import type { ERROR_SHAPES, EndpointProfileInput, ProfilePresetName, TOOL_CALL_CHUNKINGS } from "./profiles.js";

/** A tool call the scripted model makes; `arguments` objects are JSON-encoded for the wire. */
export interface ScriptedToolCall {
  /** Wins over the profile's id scheme. @default the profile's (today's: `call_<reply>_<position>`) */
  id?: string;
  name: string;
  arguments?: Record<string, unknown> | string;
}

/** An HTTP error answered instead of a completion, with the body shape of a real server. */
export interface ScriptedHttpError {
  /** @default 400 (the OpenAI SDK retries 408, 409, 429 and 5xx unless `maxRetries: 0`) */
  status?: number;
  /** @default the profile's `errorShape` ("openai") */
  shape?: (typeof ERROR_SHAPES)[number];
  message?: string;
  type?: string;
  code?: string | number | null;
  /** Sent as `Retry-After: <seconds>` (the OpenAI SDK waits that long before its retry). */
  retryAfter?: number;
  /** A context-length error as that server words it (status 400, its message, type and code). */
  contextLength?: "openai" | "vllm" | "llama-cpp";
}

/** How a stream goes wrong after `afterChunks` SSE events (the role chunk is the first). */
export interface ScriptedStreamFailure {
  afterChunks: number;
  /**
   * `error-event`: a `data: {"error": {...}}` event (shape per `shape`, status per `status`, default 500: a 5xx after the
   * stream started), then the end without `[DONE]`; `drop`: the socket is destroyed; `stall`: nothing more is written
   * (the server still closes on `close()`); `malformed`: a `data:` line that is not JSON, then the rest of the stream.
   * Without streaming, `drop` and `stall` apply before the body, and `malformed` cuts the JSON body in half.
   */
  kind: "error-event" | "drop" | "stall" | "malformed";
  status?: number;
  message?: string;
  shape?: "openai" | "vllm";
}

/** One scripted assistant reply: text and/or tool calls, or an HTTP error, with the quirks of real servers. */
export interface ScriptedReplyObject {
  content?: string;
  toolCalls?: ScriptedToolCall[];
  /** Answer with this HTTP status and an OpenAI-style error body instead of a completion (use 4xx: the OpenAI SDK retries 5xx). */
  errorStatus?: number;
  errorMessage?: string;
  /** An HTTP error with a real server's body shape (wins over `errorStatus`). */
  error?: ScriptedHttpError;
  /** `finish_reason` to send instead of `tool_calls`/`stop`: any string, `null`, or `"omit"` (no field at all). */
  finishReason?: string | null;
  /** No usage, even when `stream_options.include_usage` asks for it. */
  omitUsage?: boolean;
  /** What `max_tokens` does: the last tool call's arguments (or else the text) end half-way, `finish_reason: "length"`. */
  cutOff?: boolean;
  /** Arguments that are not JSON, with a normal finish: `{'a': 1}` (Python repr) or `{"a":1} trailing text`. */
  invalidArguments?: "single-quotes" | "trailing-text";
  /** How tool-call deltas are cut (overrides the profile's `toolCallChunks`). */
  toolCallChunks?: (typeof TOOL_CALL_CHUNKINGS)[number];
  /** Tool-call names streamed in two pieces (the first delta carries half of the name). */
  splitName?: boolean;
  /** The stream breaks after some chunks. */
  streamFailure?: ScriptedStreamFailure;
}

/** A reply: an object, plain text, or a function of the recorded request (for replies that depend on what the model was sent). */
export type ScriptedReply =
  | ScriptedReplyObject
  | string
  | ((request: RecordedChatRequest) => ScriptedReplyObject | string | Promise<ScriptedReplyObject | string>);

/** A chat message as the OpenAI wire format carries it. */
export interface WireMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content?: string | Array<{ type: string; text?: string }> | null;
  name?: string;
  tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

/** A tool definition as the OpenAI wire format carries it. */
export interface WireTool {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

/** Everything one `POST /v1/chat/completions` carried, kept so tests assert what the model really received. */
export interface RecordedChatRequest {
  /** Position of this request among this server's requests (0-based; a restarted server counts from 0 again). */
  index: number;
  /** The script entry answered (`startAt` + replies served before, modulo the length with `loop`); undefined when refused before the script. */
  scriptPosition?: number;
  body: Record<string, unknown> & { model?: string; messages?: WireMessage[]; tools?: WireTool[]; stream?: boolean };
  model: string;
  stream: boolean;
  messages: WireMessage[];
  /** The text of every system/developer message, joined by blank lines; undefined when there is none. */
  systemPrompt: string | undefined;
  tools: WireTool[];
  toolNames: string[];
  headers: IncomingHttpHeaders;
}

/** The ids of one completion the server sent (what a test compares with the history the client sends next). */
export interface SentCompletion {
  /** The request it answered (`RecordedChatRequest.index`). */
  requestIndex: number;
  completionId: string;
  /** By position; undefined where the profile left the `id` field out. */
  toolCallIds: Array<string | undefined>;
  finishReason: string | null;
}

/** Options of the local server. */
export interface OpenAICompatibleServerOptions {
  /** Replies, used in order, one per chat completion request. */
  script: readonly ScriptedReply[];
  /** Start over at the first reply when the script runs out (demos); otherwise an exhausted script answers 400. @default false */
  loop?: boolean;
  /** @default 0 (a free port) */
  port?: number;
  /** @default "127.0.0.1" */
  host?: string;
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
  /** Ids listed by `GET /v1/models`. @default ["skillgraph-test-model"] */
  models?: readonly string[];
  /** How ids are made and replies streamed: a preset name or a partial profile. @default "default" (today's scheme) */
  profile?: ProfilePresetName | EndpointProfileInput;
  /** Seed of the PRNG behind random ids (reproducible tests). @default a random seed */
  seed?: number;
  /** Skip the first N script entries (a restarted server continuing a script; its id counters start over). @default 0 */
  startAt?: number;
}

/** A running server; `url` ends in `/v1` (what OPENAI_BASE_URL / `configuration.baseURL` expect). */
export interface OpenAICompatibleServer {
  url: string;
  port: number;
  /** Every chat completion request received, in order. */
  requests: RecordedChatRequest[];
  /** Every `POST /v1/embeddings` request: the texts it asked to embed, in order. */
  embeddingRequests: string[][];
  /** Every completion sent (JSON or streamed, also one whose stream then fails), in order. */
  completions: SentCompletion[];
  /** Problems the server answered with an error (exhausted script, bad JSON, unknown route, scripted errors), so a test can assert there were none. */
  errors: string[];
  /** The options it was started with (what `restartServer` reuses). */
  options: OpenAICompatibleServerOptions;
  /** The script entry the next request would get (without `loop`'s modulo). */
  nextScriptPosition(): number;
  close(): Promise<void>;
}
