import { afterEach, describe, expect, it } from "vitest";
import {
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
  type ScriptedReplyObject,
} from "./openai-compatible-server.js";
import {
  chatJson,
  chunksOf,
  postChat,
  sseReader,
  streamChat,
  toolDeltasOf,
  type WireChunk,
} from "./openai-compatible-server/wire-client.js";

const servers: OpenAICompatibleServer[] = [];
const start = async (...args: Parameters<typeof startOpenAICompatibleServer>) => {
  const server = await startOpenAICompatibleServer(...args);
  servers.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const tricky = { text: 'say "hi"\n', accent: "é", emoji: "😀" };
const streamOf = async (reply: ScriptedReplyObject, profile?: Parameters<typeof start>[0]["profile"]) => {
  const server = await start({ script: [reply], ...(profile ? { profile } : {}) });
  return streamChat(server.url, { stream_options: { include_usage: true } });
};
const finishReasons = (chunks: WireChunk[]) =>
  chunks.flatMap((chunk) =>
    chunk.choices.filter((choice) => "finish_reason" in choice && choice.finish_reason !== null),
  );
const argumentsByIndex = (chunks: WireChunk[]) => {
  const byIndex = new Map<number, string>();
  for (const delta of toolDeltasOf(chunks))
    byIndex.set(delta.index, (byIndex.get(delta.index) ?? "") + (delta.function.arguments ?? ""));
  return [...byIndex.values()];
};

describe("streamed tool-call chunking", () => {
  it("awkward: id and name alone first, arguments ASCII-escaped and cut inside escapes and between surrogate halves", async () => {
    const { events } = await streamOf({ toolCalls: [{ name: "write", arguments: tricky }], toolCallChunks: "awkward" });
    const deltas = toolDeltasOf(chunksOf(events));
    expect(deltas[0]).toEqual({ index: 0, id: "call_1_1", type: "function", function: { name: "write" } });
    const pieces = deltas.slice(1).map((delta) => delta.function.arguments!);
    const joined = pieces.join("");
    expect(joined).toBe('{"text":"say \\"hi\\"\\n","accent":"\\u00e9","emoji":"\\ud83d\\ude00"}');
    expect(JSON.parse(joined)).toEqual(tricky);
    expect(pieces.some((piece) => piece.endsWith("\\"))).toBe(true); // inside \" and \n
    expect(pieces).toContain("u00"); // inside \u00e9
    expect(pieces.some((piece) => piece.startsWith("e9"))).toBe(true);
    expect(pieces.filter((piece) => piece === "ud8")).toHaveLength(1); // the first surrogate half, cut
    expect(pieces.every((piece) => piece.length <= 6)).toBe(true);
  });

  it("splitName: the name comes in two deltas", async () => {
    const { events } = await streamOf({ toolCalls: [{ name: "read_skill" }], splitName: true });
    const deltas = toolDeltasOf(chunksOf(events));
    expect(deltas.slice(0, 2).map((delta) => delta.function.name)).toEqual(["read_", "skill"]);
    expect(deltas[1]).not.toHaveProperty("id");
  });

  it("interleaved: the deltas of two calls alternate by index and still add up per index", async () => {
    const { events } = await streamOf({
      toolCalls: [
        { name: "a", arguments: { first: "x".repeat(20) } },
        { name: "b", arguments: { second: "y".repeat(20) } },
      ],
      toolCallChunks: "interleaved",
    });
    const chunks = chunksOf(events);
    expect(
      toolDeltasOf(chunks)
        .slice(0, 4)
        .map((delta) => delta.index),
    ).toEqual([0, 1, 0, 1]);
    expect(argumentsByIndex(chunks).map((text) => JSON.parse(text))).toEqual([
      { first: "x".repeat(20) },
      { second: "y".repeat(20) },
    ]);
  });

  it("whole (Ollama): one delta per call carrying id, name and all arguments", async () => {
    const { events } = await streamOf({ toolCalls: [{ name: "a", arguments: { q: 1 } }, { name: "b" }] }, "ollama");
    const deltas = toolDeltasOf(chunksOf(events));
    expect(deltas).toHaveLength(2);
    expect(deltas[0]).toMatchObject({ index: 0, type: "function", function: { name: "a", arguments: '{"q":1}' } });
    expect(deltas[0]!.id).toMatch(/^call_[a-z0-9]{8}$/);
  });

  it("idOnEveryChunk: the same id again on every delta, or a fresh one each time (old vLLM)", async () => {
    const reply = { toolCalls: [{ name: "a", arguments: { long: "z".repeat(30) } }] };
    const same = toolDeltasOf(chunksOf((await streamOf(reply, { idOnEveryChunk: "same" })).events));
    expect(same.length).toBeGreaterThan(2);
    expect(new Set(same.map((delta) => delta.id))).toEqual(new Set(["call_1_1"]));
    const fresh = toolDeltasOf(chunksOf((await streamOf(reply, "vllm")).events));
    expect(new Set(fresh.map((delta) => delta.id)).size).toBe(fresh.length);
  });
});

describe("reply quirks", () => {
  it("omitUsage: no usage chunk and no usage field although include_usage asked; no usage in JSON either", async () => {
    const { events } = await streamOf({ content: "hi", omitUsage: true });
    const chunks = chunksOf(events);
    expect(chunks.every((chunk) => !("usage" in chunk) && chunk.choices.length === 1)).toBe(true);
    const server = await start({ script: ["hi"], profile: { omitUsage: true } });
    expect((await chatJson(server.url)).json).not.toHaveProperty("usage");
  });

  it.each([
    ["stop", "stop"],
    ["function_call", "function_call"],
    ["length", "length"],
  ])("finishReason %s is sent as is, with tool calls", async (finishReason, expected) => {
    const reply = { toolCalls: [{ name: "a" }], finishReason };
    expect(finishReasons(chunksOf((await streamOf(reply)).events)).map((choice) => choice.finish_reason)).toEqual([
      expected,
    ]);
    const server = await start({ script: [reply] });
    expect((await chatJson(server.url)).json!.choices[0].finish_reason).toBe(expected);
  });

  it("finishReason null is sent as null, and omit leaves the field out, streamed and not", async () => {
    const nullStream = chunksOf((await streamOf({ content: "a", finishReason: null })).events);
    expect(nullStream.every((chunk) => chunk.choices.every((choice) => choice.finish_reason === null))).toBe(true);
    const omitStream = chunksOf((await streamOf({ content: "a", finishReason: "omit" })).events);
    const last = omitStream.filter((chunk) => chunk.choices.length > 0).at(-1)!;
    expect(last.choices[0]).not.toHaveProperty("finish_reason");
    const server = await start({
      script: [
        { content: "a", finishReason: null },
        { content: "a", finishReason: "omit" },
      ],
    });
    expect((await chatJson(server.url)).json!.choices[0].finish_reason).toBeNull();
    expect((await chatJson(server.url)).json!.choices[0]).not.toHaveProperty("finish_reason");
  });

  it("cutOff: the last tool call's arguments stop half-way (invalid JSON), finish_reason length", async () => {
    const reply = {
      toolCalls: [
        { name: "a", arguments: { x: 1 } },
        { name: "b", arguments: { text: "abcdefgh" } },
      ],
      cutOff: true,
    };
    const chunks = chunksOf((await streamOf(reply)).events);
    const [first, second] = argumentsByIndex(chunks);
    expect(JSON.parse(first!)).toEqual({ x: 1 });
    expect(second).toBe('{"text":"a');
    expect(finishReasons(chunks).map((choice) => choice.finish_reason)).toEqual(["length"]);
    const server = await start({ script: [reply, { content: "one two three four", cutOff: true }] });
    const json = (await chatJson(server.url)).json!;
    expect(json.choices[0].message.tool_calls[1].function.arguments).toBe('{"text":"a');
    expect(json.choices[0].finish_reason).toBe("length");
    const text = (await chatJson(server.url)).json!;
    expect(text.choices[0].message.content).toBe("one two t");
    expect(text.choices[0].finish_reason).toBe("length");
  });

  it.each([
    ["single-quotes", "{'q':'x'}"],
    ["trailing-text", '{"q":"x"}\n</tool_call>'],
  ] as const)("invalidArguments %s: arguments that are not JSON, finish_reason tool_calls", async (kind, expected) => {
    const reply = { toolCalls: [{ name: "a", arguments: { q: "x" } }], invalidArguments: kind };
    const chunks = chunksOf((await streamOf(reply)).events);
    expect(argumentsByIndex(chunks)).toEqual([expected]);
    expect(() => JSON.parse(expected)).toThrow();
    expect(finishReasons(chunks).map((choice) => choice.finish_reason)).toEqual(["tool_calls"]);
  });
});

describe("stream failures", () => {
  const words = { content: "one two three four five" };

  it("error-event: two chunks, an OpenAI-style error event with status 500, then the end without [DONE]", async () => {
    const read = await streamOf({ ...words, streamFailure: { afterChunks: 2, kind: "error-event" } });
    expect(read.error).toBeUndefined();
    expect(read.events).toHaveLength(3);
    expect(read.events[2]).toEqual({
      error: {
        message: "The server had an error while processing your request.",
        type: "server_error",
        param: null,
        code: 500,
      },
    });
  });

  it("error-event in vLLM's shape wraps its ErrorResponse", async () => {
    const read = await streamOf({
      ...words,
      streamFailure: { afterChunks: 1, kind: "error-event", shape: "vllm", status: 400, message: "engine died" },
    });
    expect(read.events.at(-1)).toEqual({
      error: { object: "error", message: "engine died", type: "BadRequestError", param: null, code: 400 },
    });
  });

  it("drop: the connection is destroyed after two chunks", async () => {
    const read = await streamOf({ ...words, streamFailure: { afterChunks: 2, kind: "drop" } });
    expect(read.events).toHaveLength(2);
    expect(read.error).toBe("terminated");
  });

  it("stall: two chunks, then nothing; close() still ends the server and the reader sees the connection end", async () => {
    const server = await startOpenAICompatibleServer({
      script: [{ ...words, streamFailure: { afterChunks: 2, kind: "stall" } }],
    });
    const reader = sseReader(await postChat(server.url, { model: "m", messages: [], stream: true }));
    expect(await reader.untilEvents(2)).toHaveLength(2);
    await server.close();
    const read = await reader.all();
    expect(read.events).toHaveLength(2);
    expect(read.error).toBe("terminated");
  });

  it("malformed: one data line that is not JSON, then the rest of the stream and [DONE]", async () => {
    const read = await streamOf({ ...words, streamFailure: { afterChunks: 2, kind: "malformed" } });
    expect(read.events[2]).toBe('{"id":"chatcmpl-1","object":"chat.comple');
    expect(read.events.at(-1)).toBe("[DONE]");
    expect(
      chunksOf(read.events)
        .flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? ""))
        .join(""),
    ).toBe(words.content);
  });

  it("without streaming: drop fails the request, malformed cuts the body, stall waits until close()", async () => {
    const server = await startOpenAICompatibleServer({
      script: [
        { ...words, streamFailure: { afterChunks: 0, kind: "drop" } },
        { ...words, streamFailure: { afterChunks: 0, kind: "malformed" } },
        { ...words, streamFailure: { afterChunks: 0, kind: "stall" } },
      ],
    });
    await expect(chatJson(server.url)).rejects.toThrow("fetch failed");
    const malformed = await chatJson(server.url);
    expect(malformed.json).toBeUndefined();
    expect(malformed.text.startsWith('{"id":"chatcmpl-2"')).toBe(true);
    const stalled = chatJson(server.url);
    while (server.requests.length < 3) await new Promise((resolveTick) => setImmediate(resolveTick));
    await server.close();
    await expect(stalled).rejects.toThrow("fetch failed");
  });
});
