import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { buildCompletion, completionJson } from "./completion.js";
import { embeddingsAnswer } from "./embeddings.js";
import { duplicateToolCallIdMessage, errorAnswer, type HttpAnswer } from "./errors.js";
import { resolveProfile, type EndpointProfile } from "./profiles.js";
import { createRandom, type Random } from "./random.js";
import { recordRequest, textOf } from "./record.js";
import { streamCompletion } from "./stream.js";
import type {
  OpenAICompatibleServer,
  OpenAICompatibleServerOptions,
  RecordedChatRequest,
  ScriptedReplyObject,
  SentCompletion,
} from "./types.js";

function sendAnswer(response: ServerResponse, answer: HttpAnswer): void {
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
}

function sendJson(response: ServerResponse, status: number, payload: unknown): void {
  sendAnswer(response, { status, headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const normalizeReply = (reply: ScriptedReplyObject | string): ScriptedReplyObject =>
  typeof reply === "string" ? { content: reply } : reply;

/** The state one running server shares between its requests. */
interface ServerState {
  options: OpenAICompatibleServerOptions;
  profile: EndpointProfile;
  random: Random;
  startAt: number;
  /** Script entries taken so far. */
  taken: number;
  requests: RecordedChatRequest[];
  embeddingRequests: string[][];
  completions: SentCompletion[];
  errors: string[];
}

function fail(state: ServerState, response: ServerResponse, status: number, message: string): void {
  state.errors.push(message);
  sendAnswer(
    response,
    errorAnswer({ status, message, type: status === 401 ? "authentication_error" : "invalid_request_error" }, "openai"),
  );
}

/** Sends a completion as JSON, or breaks the answer as the scripted `streamFailure` says. */
function sendCompletionJson(response: ServerResponse, json: Record<string, unknown>, reply: ScriptedReplyObject): void {
  const failure = reply.streamFailure;
  if (failure?.kind === "stall") return;
  if (failure?.kind === "drop") {
    response.socket?.destroy();
    return;
  }
  const body = JSON.stringify(json);
  sendAnswer(response, {
    status: 200,
    headers: { "content-type": "application/json" },
    body: failure?.kind === "malformed" ? body.slice(0, Math.ceil(body.length / 2)) : body,
  });
}

async function handleChat(state: ServerState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { options, profile } = state;
  const body = JSON.parse(await readBody(request)) as RecordedChatRequest["body"];
  const recorded = recordRequest(state.requests.length, body, request.headers);
  state.requests.push(recorded);
  const duplicate = profile.rejectDuplicateToolCallIds ? duplicateToolCallIdMessage(recorded.messages) : undefined;
  if (duplicate !== undefined) {
    state.errors.push(duplicate);
    return sendAnswer(
      response,
      errorAnswer({ status: 400, message: duplicate, code: "invalid_request_error" }, "openai"),
    );
  }
  const position = state.startAt + state.taken++;
  recorded.scriptPosition = options.loop ? position % options.script.length : position;
  const entry = options.script[recorded.scriptPosition];
  if (entry === undefined) {
    const last = recorded.messages.at(-1);
    const started = state.startAt > 0 ? ` (started at entry ${state.startAt})` : "";
    return fail(
      state,
      response,
      400,
      `openai-compatible-server: script exhausted: request ${recorded.index + 1}${started} but only ${options.script.length} replies (last message: ${last?.role} ${JSON.stringify(textOf(last?.content)).slice(0, 200)})`,
    );
  }
  const reply = normalizeReply(typeof entry === "function" ? await entry(recorded) : entry);
  if (reply.error !== undefined || reply.errorStatus !== undefined) {
    const answer = errorAnswer(
      reply.error ?? {
        status: reply.errorStatus,
        message: reply.errorMessage ?? `scripted error ${reply.errorStatus}`,
      },
      profile.errorShape,
    );
    state.errors.push(`scripted error ${answer.status}: ${answer.body}`);
    return sendAnswer(response, answer);
  }
  const completion = buildCompletion({
    request: recorded,
    reply,
    profile,
    random: state.random,
    served: recorded.index + 1,
  });
  state.completions.push({
    requestIndex: recorded.index,
    completionId: completion.id,
    toolCallIds: completion.toolCalls.map((call) => call.id),
    finishReason: completion.finishReason,
  });
  if (!recorded.stream) return sendCompletionJson(response, completionJson(completion), reply);
  const includeUsage = Boolean((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage);
  await streamCompletion({ response, completion, reply, profile, random: state.random, includeUsage });
}

async function handle(state: ServerState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { options } = state;
  const path = (request.url ?? "/").split("?")[0]!.replace(/\/+$/, "");
  if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`)
    return fail(
      state,
      response,
      401,
      `openai-compatible-server: missing or wrong API key on ${request.method} ${path}`,
    );
  if (request.method === "GET" && path === "/v1/models") {
    const models = options.models ?? ["skillgraph-test-model"];
    return sendJson(response, 200, {
      object: "list",
      data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "skillgraph" })),
    });
  }
  if (request.method === "POST" && path === "/v1/embeddings") return handleEmbeddings(state, request, response);
  if (request.method === "POST" && path === "/v1/chat/completions") return handleChat(state, request, response);
  return fail(state, response, 404, `openai-compatible-server: no route ${request.method} ${path}`);
}

async function handleEmbeddings(state: ServerState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const answer = embeddingsAnswer(JSON.parse(await readBody(request)) as Record<string, unknown>);
  if ("error" in answer) return fail(state, response, 400, answer.error);
  state.embeddingRequests.push(answer.texts);
  sendJson(response, 200, answer.json);
}

/**
 * Starts a real HTTP server speaking the OpenAI chat completions protocol (JSON and SSE streaming), replaying a script,
 * with the ids and quirks of the endpoint `profile`.
 * @example
 * const server = await startOpenAICompatibleServer({ script: [{ toolCalls: [{ name: "read_skill", arguments: { name: "sql-review" } }] }, "Done."] });
 * const model = new ChatOpenAI({ model: "test", apiKey: "test", configuration: { baseURL: server.url } });
 */
export async function startOpenAICompatibleServer(
  options: OpenAICompatibleServerOptions,
): Promise<OpenAICompatibleServer> {
  if (!Array.isArray(options.script) || options.script.length === 0)
    throw new TypeError("startOpenAICompatibleServer: options.script must be a non-empty array of replies");
  const startAt = options.startAt ?? 0;
  if (!Number.isInteger(startAt) || startAt < 0)
    throw new TypeError(`startOpenAICompatibleServer: options.startAt must be a non-negative integer, got ${startAt}`);
  const state: ServerState = {
    options,
    profile: resolveProfile(options.profile),
    random: createRandom(options.seed),
    startAt,
    taken: 0,
    requests: [],
    embeddingRequests: [],
    completions: [],
    errors: [],
  };
  const server = createServer((request, response) => {
    handle(state, request, response).catch((error: unknown) => {
      if (response.headersSent) response.socket?.destroy();
      else fail(state, response, 400, `openai-compatible-server: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolveListen, rejectListen) => {
    server.once("error", rejectListen);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolveListen());
  });
  const { port, address } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/v1`,
    port,
    requests: state.requests,
    embeddingRequests: state.embeddingRequests,
    completions: state.completions,
    errors: state.errors,
    options,
    nextScriptPosition: () => state.startAt + state.taken,
    close: () =>
      new Promise<void>((resolveClose) => {
        if (!server.listening) return resolveClose();
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}

/**
 * Closes `server` and starts a new one with the same options that continues the script where it stopped (`startAt`),
 * with its id counters and PRNG starting over (the same `seed` gives the same ids again), as a restarted local server
 * does. It asks for the same port; if that is taken it takes a free one, so always read the new `url`.
 */
export async function restartServer(
  server: OpenAICompatibleServer,
  overrides: Partial<OpenAICompatibleServerOptions> = {},
): Promise<OpenAICompatibleServer> {
  const startAt = server.nextScriptPosition();
  await server.close();
  const options = { ...server.options, port: server.port, startAt, ...overrides };
  try {
    return await startOpenAICompatibleServer(options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || overrides.port !== undefined) throw error;
    return startOpenAICompatibleServer({ ...options, port: 0 });
  }
}
