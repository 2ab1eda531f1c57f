import { AIMessage, HumanMessage, ToolMessage, type AIMessageChunk } from "@langchain/core/messages";
import { concat } from "@langchain/core/utils/stream";
import { ChatOpenAI } from "@langchain/openai";
import { afterEach, describe, expect, it } from "vitest";
import {
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
  type ScriptedHttpError,
  type ScriptedReplyObject,
} from "./openai-compatible-server.js";
import { chatJson } from "./openai-compatible-server/wire-client.js";

const servers: OpenAICompatibleServer[] = [];
const start = async (...args: Parameters<typeof startOpenAICompatibleServer>) => {
  const server = await startOpenAICompatibleServer(...args);
  servers.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const modelFor = (server: OpenAICompatibleServer, maxRetries = 0) =>
  new ChatOpenAI({ configuration: { baseURL: server.url }, apiKey: "x", model: "m", maxRetries });

/** What ChatOpenAI throws: its class, `name`, message, status (undefined when the error is not an HTTP one). */
async function thrown(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    const { name, message, status, lc_error_code } = error as Error & { status?: number; lc_error_code?: string };
    return { class: (error as Error).constructor.name, name, message, status, lc_error_code };
  }
  throw new Error("expected an error");
}
/** The error `run` throws, for assertions on its own properties. */
async function errorOf<Extra>(run: () => Promise<unknown>): Promise<Error & Extra> {
  try {
    await run();
  } catch (error) {
    return error as Error & Extra;
  }
  throw new Error("expected an error");
}
const streamAll = async (model: ChatOpenAI) => {
  let message: AIMessageChunk | undefined;
  for await (const chunk of await model.stream("hi")) message = message ? concat(message, chunk) : chunk;
  return message;
};

describe("HTTP error bodies on the wire", () => {
  it.each([
    [
      "openai",
      "application/json",
      '{"error":{"message":"bad thing","type":"invalid_request_error","param":null,"code":null}}',
    ],
    [
      "vllm",
      "application/json",
      '{"object":"error","message":"bad thing","type":"BadRequestError","param":null,"code":400}',
    ],
    ["llama-cpp", "application/json", '{"error":{"code":400,"message":"bad thing","type":"invalid_request_error"}}'],
    ["fastapi", "application/json", '{"detail":"bad thing"}'],
    ["text", "text/plain; charset=utf-8", "bad thing"],
    ["empty", null, ""],
  ] as const)("%s", async (shape, contentType, body) => {
    const server = await start({ script: [{ error: { status: 400, shape, message: "bad thing" } }] });
    const answer = await chatJson(server.url);
    expect(answer.status).toBe(400);
    expect(answer.headers.get("content-type")).toBe(contentType);
    expect(answer.text).toBe(body);
    expect(server.errors).toEqual([`scripted error 400: ${body}`]);
  });

  it("a profile's errorShape applies to scripted errors naming none; errorStatus keeps the OpenAI shape", async () => {
    const server = await start({ script: [{ error: { status: 404, message: "no model" } }], profile: "vllm" });
    expect((await chatJson(server.url)).json).toEqual({
      object: "error",
      message: "no model",
      type: "NotFoundError",
      param: null,
      code: 404,
    });
    const legacy = await start({ script: [{ errorStatus: 403, errorMessage: "nope" }] });
    expect((await chatJson(legacy.url)).json).toEqual({
      error: { message: "nope", type: "invalid_request_error", param: null, code: null },
    });
  });

  it("context-length errors in OpenAI's, vLLM's and llama.cpp's words", async () => {
    const server = await start({
      script: [
        { error: { contextLength: "openai" } },
        { error: { contextLength: "vllm" } },
        { error: { contextLength: "llama-cpp" } },
      ],
    });
    const [openai, vllm, llama] = [await chatJson(server.url), await chatJson(server.url), await chatJson(server.url)];
    expect([openai.status, vllm.status, llama.status]).toEqual([400, 400, 400]);
    expect(openai.json).toMatchObject({ error: { type: "invalid_request_error", code: "context_length_exceeded" } });
    expect(openai.json!.error.message).toMatch(/^This model's maximum context length is 128000 tokens\./);
    expect(vllm.json).toMatchObject({ object: "error", type: "BadRequestError", code: 400 });
    expect(vllm.json!.message).toMatch(
      /^This model's maximum context length is 4096 tokens\. However, you requested 5000 tokens/,
    );
    expect(llama.json).toEqual({
      error: {
        code: 400,
        message: "request (13392 tokens) exceeds the available context size (8192 tokens), try increasing it",
        type: "exceed_context_size_error",
        n_prompt_tokens: 13392,
        n_ctx: 8192,
      },
    });
  });

  it("retryAfter is sent as a Retry-After header in seconds", async () => {
    const server = await start({ script: [{ error: { status: 429, retryAfter: 3, message: "slow down" } }] });
    const answer = await chatJson(server.url);
    expect(answer.status).toBe(429);
    expect(answer.headers.get("retry-after")).toBe("3");
    expect(answer.json!.error.type).toBe("rate_limit_exceeded");
  });
});

// What @langchain/openai 1.5.8 (openai 6.49) throws for each body: the runtime's error handling depends on it.
const NO_BODY = "400 status code (no body)";
const ERRORS: Array<
  [string, ScriptedHttpError, { class: string; message: string | RegExp; status: number | undefined }]
> = [
  ["openai shape", { message: "bad thing" }, { class: "BadRequestError", message: "400 bad thing", status: 400 }],
  [
    "vllm shape: the message is lost",
    { shape: "vllm", message: "bad thing" },
    { class: "BadRequestError", message: NO_BODY, status: 400 },
  ],
  [
    "llama-cpp shape",
    { shape: "llama-cpp", message: "bad thing" },
    { class: "BadRequestError", message: "400 bad thing", status: 400 },
  ],
  [
    "fastapi detail: the message is lost",
    { shape: "fastapi", message: "bad thing" },
    { class: "BadRequestError", message: NO_BODY, status: 400 },
  ],
  [
    "plain text body",
    { shape: "text", message: "bad thing" },
    { class: "BadRequestError", message: "400 bad thing", status: 400 },
  ],
  ["empty body", { shape: "empty" }, { class: "BadRequestError", message: NO_BODY, status: 400 }],
  [
    "OpenAI context length: ContextOverflowError (status only on .cause)",
    { contextLength: "openai" },
    {
      class: "ContextOverflowError",
      message: /^400 This model's maximum context length is 128000 tokens/,
      status: undefined,
    },
  ],
  [
    "vLLM context length: the wording is lost",
    { contextLength: "vllm" },
    { class: "BadRequestError", message: NO_BODY, status: 400 },
  ],
  [
    "llama.cpp context length: not recognised as an overflow",
    { contextLength: "llama-cpp" },
    {
      class: "BadRequestError",
      message: /^400 request \(13392 tokens\) exceeds the available context size/,
      status: 400,
    },
  ],
  ["500", { status: 500, message: "boom" }, { class: "InternalServerError", message: "500 boom", status: 500 }],
  [
    "429",
    { status: 429, message: "slow down" },
    {
      class: "RateLimitError",
      message:
        "429 slow down\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langchain/errors/MODEL_RATE_LIMIT/\n",
      status: 429,
    },
  ],
];

describe("what ChatOpenAI throws for each error body (maxRetries 0)", () => {
  it.each(ERRORS)("%s", async (_label, error, expected) => {
    const server = await start({ script: [{ error }, { error }] });
    const streamed = await thrown(() => streamAll(modelFor(server)));
    const invoked = await thrown(() => modelFor(server).invoke("hi"));
    for (const seen of [streamed, invoked]) {
      expect(seen.class).toBe(expected.class);
      if (typeof expected.message === "string") expect(seen.message).toBe(expected.message);
      else expect(seen.message).toMatch(expected.message);
      expect(seen.status).toBe(expected.status);
    }
    if (expected.class === "RateLimitError")
      expect(streamed).toMatchObject({ lc_error_code: "MODEL_RATE_LIMIT", name: "RateLimitCapacityError" });
  });

  it("the ContextOverflowError keeps the SDK's BadRequestError as its cause", async () => {
    const server = await start({ script: [{ error: { contextLength: "openai" } }] });
    const error = await errorOf<{ cause?: unknown }>(() => modelFor(server).invoke("hi"));
    expect(error.cause).toMatchObject({ status: 400, code: "context_length_exceeded" });
  });

  it("a 429 with Retry-After once, then success: LangChain's caller waits and retries (the SDK gets maxRetries 0), and the reply arrives", async () => {
    const server = await start({
      script: [{ error: { status: 429, retryAfter: 1, message: "slow down" } }, "after the wait"],
    });
    const message = await streamAll(modelFor(server, 1));
    expect(message!.content).toBe("after the wait");
    expect(server.requests).toHaveLength(2);
    expect(server.errors).toHaveLength(1);
  });

  it("a 429 with code insufficient_quota is not retried: InsufficientQuotaError, rateLimitType stop", async () => {
    const server = await start({
      script: [
        { error: { status: 429, code: "insufficient_quota", message: "You exceeded your current quota" } },
        "unused",
      ],
    });
    const error = await errorOf<{ rateLimitType?: string }>(() => modelFor(server, 2).invoke("hi"));
    expect(error).toMatchObject({ name: "InsufficientQuotaError", rateLimitType: "stop" });
    expect(error.message).toMatch(/^429 You exceeded your current quota\n\nTroubleshooting URL: .*MODEL_RATE_LIMIT/);
    expect(server.requests).toHaveLength(1);
  });

  it("DeepSeek's refusal of a repeated tool-call id reaches the caller as a BadRequestError", async () => {
    const server = await start({ script: ["unused"], profile: "deepseek" });
    const call = (id: string) => new AIMessage({ content: "", tool_calls: [{ id, name: "x", args: {} }] });
    const history = [
      new HumanMessage("go"),
      call("call_a"),
      new ToolMessage({ tool_call_id: "call_a", content: "1" }),
      call("call_a"),
      new ToolMessage({ tool_call_id: "call_a", content: "2" }),
    ];
    expect(await thrown(() => modelFor(server).invoke(history))).toMatchObject({
      class: "BadRequestError",
      message: "400 Duplicate value for 'tool_call_id' of call_a in message[3]",
      status: 400,
    });
  });
});

describe("what ChatOpenAI does when a stream fails", () => {
  const words: ScriptedReplyObject = { content: "one two three four five" };
  /** Streams, keeping what arrived before the error. */
  async function partial(server: OpenAICompatibleServer) {
    const pieces: string[] = [];
    const error = await thrown(async () => {
      for await (const chunk of await modelFor(server).stream("hi")) pieces.push(String(chunk.content));
    });
    return { text: pieces.join(""), error };
  }

  it.each([
    [
      "error-event",
      { kind: "error-event" },
      { name: "Error", message: "The server had an error while processing your request." },
    ],
    [
      "vLLM error-event",
      { kind: "error-event", shape: "vllm", status: 400, message: "engine died" },
      { name: "Error", message: "engine died" },
    ],
    ["drop", { kind: "drop" }, { name: "TypeError", message: "terminated" }],
    [
      "malformed",
      { kind: "malformed" },
      { name: "SyntaxError", message: "Unterminated string in JSON at position 40" },
    ],
  ] as const)("%s after 3 chunks: the first words arrive, then it throws", async (_label, failure, expected) => {
    const server = await start({ script: [{ ...words, streamFailure: { afterChunks: 3, ...failure } }] });
    const { text, error } = await partial(server);
    expect(text).toBe("one two ");
    expect(error).toMatchObject({ ...expected, status: undefined });
  });

  it("stall: the stream waits until the server closes, then throws terminated", async () => {
    const server = await startOpenAICompatibleServer({
      script: [{ ...words, streamFailure: { afterChunks: 3, kind: "stall" } }],
    });
    const stream = await modelFor(server).stream("hi");
    const iterator = stream[Symbol.asyncIterator]();
    const seen: string[] = [];
    while (seen.join("") !== "one two ") seen.push(String((await iterator.next()).value!.content));
    await server.close();
    expect(await thrown(() => iterator.next())).toMatchObject({ name: "TypeError", message: "terminated" });
  });

  it("without streaming: a dropped connection is an APIConnectionError, a cut body a SyntaxError", async () => {
    const server = await start({
      script: [
        { ...words, streamFailure: { afterChunks: 0, kind: "drop" } },
        { ...words, streamFailure: { afterChunks: 0, kind: "malformed" } },
      ],
    });
    expect(await thrown(() => modelFor(server).invoke("hi"))).toMatchObject({
      name: "Error",
      message: "Connection error.",
    });
    expect(await thrown(() => modelFor(server).invoke("hi"))).toMatchObject({ name: "SyntaxError" });
  });
});
