import { readFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

/** A tool call the scripted model makes; `arguments` objects are JSON-encoded for the wire. */
export interface ScriptedToolCall {
  /** @default `call_<reply>_<position>` */
  id?: string;
  name: string;
  arguments?: Record<string, unknown> | string;
}

/** One scripted assistant reply: text and/or tool calls, or an HTTP error. */
export interface ScriptedReplyObject {
  content?: string;
  toolCalls?: ScriptedToolCall[];
  /** Answer with this HTTP status and an OpenAI-style error body instead of a completion (use 4xx: the OpenAI SDK retries 5xx). */
  errorStatus?: number;
  errorMessage?: string;
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
  /** Position of this request (0-based); the reply used is `script[index]` (modulo the length with `loop`). */
  index: number;
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
}

/** A running server; `url` ends in `/v1` (what OPENAI_BASE_URL / `configuration.baseURL` expect). */
export interface OpenAICompatibleServer {
  url: string;
  port: number;
  /** Every chat completion request received, in order. */
  requests: RecordedChatRequest[];
  /** Every `POST /v1/embeddings` request: the texts it asked to embed, in order. */
  embeddingRequests: string[][];
  /** Problems the server answered with an error (exhausted script, bad JSON, unknown route), so a test can assert there were none. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * Starts a real HTTP server speaking the OpenAI chat completions protocol (JSON and SSE streaming), replaying a script.
 * @example
 * const server = await startOpenAICompatibleServer({ script: [{ toolCalls: [{ name: "read_skill", arguments: { name: "sql-review" } }] }, "Done."] });
 * const model = new ChatOpenAI({ model: "test", apiKey: "test", configuration: { baseURL: server.url } });
 */
export async function startOpenAICompatibleServer(
  options: OpenAICompatibleServerOptions,
): Promise<OpenAICompatibleServer> {
  if (!Array.isArray(options.script) || options.script.length === 0)
    throw new TypeError("startOpenAICompatibleServer: options.script must be a non-empty array of replies");
  const requests: RecordedChatRequest[] = [];
  const embeddingRequests: string[][] = [];
  const errors: string[] = [];
  const models = options.models ?? ["skillgraph-test-model"];
  const fail = (response: ServerResponse, status: number, message: string) => {
    errors.push(message);
    sendJson(response, status, {
      error: { message, type: status === 401 ? "authentication_error" : "invalid_request_error", code: null },
    });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) =>
      fail(response, 400, `openai-compatible-server: ${(error as Error).message}`),
    );
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? "/").split("?")[0]!.replace(/\/+$/, "");
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return fail(response, 401, `openai-compatible-server: missing or wrong API key on ${request.method} ${path}`);
    }
    if (request.method === "GET" && path === "/v1/models") {
      return sendJson(response, 200, {
        object: "list",
        data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "skillgraph" })),
      });
    }
    if (request.method === "POST" && path === "/v1/embeddings") {
      const body = JSON.parse(await readBody(request)) as {
        input?: unknown;
        model?: unknown;
        encoding_format?: unknown;
      };
      const input = typeof body.input === "string" ? [body.input] : body.input;
      if (!Array.isArray(input) || !input.every((text) => typeof text === "string"))
        return fail(
          response,
          400,
          "openai-compatible-server: embeddings input must be a string or an array of strings",
        );
      embeddingRequests.push(input);
      const base64 = body.encoding_format === "base64";
      const data = input.map((text, index) => {
        const vector = deterministicEmbedding(text);
        return {
          object: "embedding",
          index,
          embedding: base64 ? Buffer.from(Float32Array.from(vector).buffer).toString("base64") : vector,
        };
      });
      const tokens = input.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
      return sendJson(response, 200, {
        object: "list",
        data,
        model: typeof body.model === "string" ? body.model : "skillgraph-test-embeddings",
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      });
    }
    if (request.method !== "POST" || path !== "/v1/chat/completions")
      return fail(response, 404, `openai-compatible-server: no route ${request.method} ${path}`);
    const body = JSON.parse(await readBody(request)) as RecordedChatRequest["body"];
    const recorded = recordRequest(requests.length, body, request.headers);
    requests.push(recorded);
    const position = options.loop ? recorded.index % options.script.length : recorded.index;
    const entry = options.script[position];
    if (entry === undefined) {
      const last = recorded.messages.at(-1);
      return fail(
        response,
        400,
        `openai-compatible-server: script exhausted: request ${recorded.index + 1} but only ${options.script.length} replies (last message: ${last?.role} ${JSON.stringify(textOf(last?.content)).slice(0, 200)})`,
      );
    }
    const reply = normalizeReply(typeof entry === "function" ? await entry(recorded) : entry);
    if (reply.errorStatus !== undefined)
      return fail(response, reply.errorStatus, reply.errorMessage ?? `scripted error ${reply.errorStatus}`);
    const completion = buildCompletion(recorded, reply);
    if (recorded.stream)
      streamCompletion(
        response,
        completion,
        Boolean((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage),
      );
    else sendJson(response, 200, completion.json);
  }

  await new Promise<void>((resolveListen, rejectListen) => {
    server.once("error", rejectListen);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolveListen());
  });
  const { port, address } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/v1`,
    port,
    requests,
    embeddingRequests,
    errors,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}

/** Dimensions of the test server's embeddings. */
export const TEST_EMBEDDING_DIMENSIONS = 256;

/**
 * The deterministic embedding the test server returns: lowercase character trigrams of the text (with word
 * boundaries) hashed into 256 dimensions, L2-normalised. Texts sharing spelling get a high cosine, so tests can
 * predict rankings without a model.
 */
export function deterministicEmbedding(text: string): number[] {
  const vector = new Array<number>(TEST_EMBEDDING_DIMENSIONS).fill(0);
  for (const word of text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)) {
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      let hash = 2166136261;
      for (const char of padded.slice(i, i + 3)) hash = Math.imul(hash ^ char.codePointAt(0)!, 16777619);
      vector[(hash >>> 0) % TEST_EMBEDDING_DIMENSIONS]! += 1;
    }
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

/** A script stored in a file: `.json` (an array of replies, or `{ "replies": [...], "loop": true }`) or a JS/TS module whose default export is either. */
export async function scriptFromFile(file: string): Promise<{ script: ScriptedReply[]; loop: boolean }> {
  const path = resolve(file);
  const loaded: unknown = [".json", ""].includes(extname(path))
    ? JSON.parse(await readFile(path, "utf8"))
    : ((await import(pathToFileURL(path).href)) as { default: unknown }).default;
  const { replies, loop } = Array.isArray(loaded)
    ? { replies: loaded, loop: false }
    : ((loaded ?? {}) as { replies?: unknown; loop?: unknown });
  if (!Array.isArray(replies) || replies.length === 0)
    throw new TypeError(`${path}: expected a non-empty array of replies, or { "replies": [...] }`);
  return { script: replies as ScriptedReply[], loop: loop === true };
}

function recordRequest(
  index: number,
  body: RecordedChatRequest["body"],
  headers: IncomingHttpHeaders,
): RecordedChatRequest {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const system = messages
    .filter((message) => message.role === "system" || message.role === "developer")
    .map((message) => textOf(message.content));
  return {
    index,
    body,
    model: String(body.model ?? ""),
    stream: body.stream === true,
    messages,
    systemPrompt: system.length > 0 ? system.join("\n\n") : undefined,
    tools,
    toolNames: tools.map((tool) => tool.function.name),
    headers,
  };
}

/** The plain text of a wire message's content (string or text parts). */
export function textOf(content: WireMessage["content"]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
}

function normalizeReply(reply: ScriptedReplyObject | string): ScriptedReplyObject {
  return typeof reply === "string" ? { content: reply } : reply;
}

interface Completion {
  json: Record<string, unknown>;
  id: string;
  model: string;
  content: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: "stop" | "tool_calls";
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

function buildCompletion(request: RecordedChatRequest, reply: ScriptedReplyObject): Completion {
  const id = `chatcmpl-${request.index + 1}`;
  const toolCalls = (reply.toolCalls ?? []).map((call, position) => ({
    id: call.id ?? `call_${request.index + 1}_${position + 1}`,
    name: call.name,
    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}),
  }));
  const content = reply.content ?? "";
  const finishReason = toolCalls.length > 0 ? "tool_calls" : "stop";
  const promptTokens = Math.ceil(JSON.stringify(request.messages).length / 4);
  const completionTokens = Math.ceil(
    (content.length + toolCalls.reduce((sum, call) => sum + call.arguments.length, 0)) / 4,
  );
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
  const message = {
    role: "assistant",
    content: content === "" && toolCalls.length > 0 ? null : content,
    ...(toolCalls.length > 0
      ? {
          tool_calls: toolCalls.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: call.arguments },
          })),
        }
      : {}),
  };
  const json = {
    id,
    object: "chat.completion",
    created: 0,
    model: request.model,
    choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
    usage,
  };
  return { json, id, model: request.model, content, toolCalls, finishReason, usage };
}

/** Sends a completion as SSE chunks: role, content word by word, tool call deltas (id+name, then arguments in pieces), finish, optional usage, [DONE]. */
function streamCompletion(response: ServerResponse, completion: Completion, includeUsage: boolean): void {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    writeEvent(response, {
      id: completion.id,
      object: "chat.completion.chunk",
      created: 0,
      model: completion.model,
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
      ...(includeUsage ? { usage: null } : {}),
    });
  chunk({ role: "assistant", content: "" });
  for (const token of completion.content.match(/\s*\S+\s*/g) ?? []) chunk({ content: token });
  completion.toolCalls.forEach((call, index) => {
    chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] });
    for (let start = 0; start < call.arguments.length; start += 8) {
      chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(start, start + 8) } }] });
    }
  });
  chunk({}, completion.finishReason);
  if (includeUsage)
    writeEvent(response, {
      id: completion.id,
      object: "chat.completion.chunk",
      created: 0,
      model: completion.model,
      choices: [],
      usage: completion.usage,
    });
  response.end("data: [DONE]\n\n");
}

function writeEvent(response: ServerResponse, payload: unknown): void {
  response.write(`data: ${JSON.stringify(payload)}\n\n`);
}

function sendJson(response: ServerResponse, status: number, payload: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(payload));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** CLI mode: `node --import tsx test/support/openai-compatible-server.ts --script FILE [--port N] [--loop] [--log]` prints the base URL and serves until killed. */
async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      script: { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
      loop: { type: "boolean" },
      log: { type: "boolean" },
      "api-key": { type: "string" },
    },
  });
  if (!values.script) {
    process.stderr.write(
      "usage: openai-compatible-server.ts --script FILE [--port N] [--host H] [--loop] [--log] [--api-key KEY]\n",
    );
    process.exitCode = 2;
    return;
  }
  const { script, loop } = await scriptFromFile(values.script);
  const logged: ScriptedReply[] = script.map((reply) => async (request) => {
    if (values.log)
      process.stderr.write(
        `request ${request.index + 1}: ${request.messages.length} messages, tools [${request.toolNames.join(", ")}], stream ${request.stream}\n`,
      );
    return typeof reply === "function" ? reply(request) : reply;
  });
  const server = await startOpenAICompatibleServer({
    script: logged,
    loop: values.loop === true || loop,
    port: values.port === undefined ? 0 : Number(values.port),
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values["api-key"] === undefined ? {} : { apiKey: values["api-key"] }),
  });
  process.stdout.write(`${server.url}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main(process.argv.slice(2));
}
