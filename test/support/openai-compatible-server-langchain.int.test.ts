// What ChatOpenAI (@langchain/openai 1.5.8) makes of each endpoint profile and reply quirk, streamed (`.stream()`,
// chunks concatenated) and not (`.invoke()` with streaming off). These record LangChain's behaviour, not ours: the
// runtime's defences (unique message ids, unique tool-call ids, no silent turn end) are built on it.
import { AIMessage, HumanMessage, type AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { concat } from "@langchain/core/utils/stream";
import { messagesStateReducer } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { afterEach, describe, expect, it } from "vitest";
import {
  restartServer,
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
  type OpenAICompatibleServerOptions,
  type ScriptedReplyObject,
} from "./openai-compatible-server.js";

const servers: OpenAICompatibleServer[] = [];
const start = async (options: OpenAICompatibleServerOptions) => {
  const server = await startOpenAICompatibleServer(options);
  servers.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const modelFor = (server: OpenAICompatibleServer) =>
  new ChatOpenAI({ configuration: { baseURL: server.url }, apiKey: "x", model: "m", maxRetries: 0 });
async function streamed(server: OpenAICompatibleServer): Promise<AIMessageChunk> {
  let message: AIMessageChunk | undefined;
  for await (const chunk of await modelFor(server).stream("hi")) message = message ? concat(message, chunk) : chunk;
  return message!;
}
const invoked = (server: OpenAICompatibleServer) => modelFor(server).invoke("hi");
/** Both ways, each on its own server with the same options (same seed, so the same ids). */
async function bothWays(options: Omit<OpenAICompatibleServerOptions, "script">, reply: ScriptedReplyObject) {
  const stream = await streamed(await start({ seed: 3, ...options, script: [reply] }));
  const invoke = await invoked(await start({ seed: 3, ...options, script: [reply] }));
  return { stream, invoke };
}
const twoCalls: ScriptedReplyObject = {
  toolCalls: [
    { name: "alpha", arguments: { text: 'say "é" 😀' } },
    { name: "beta", arguments: { n: 2 } },
  ],
};
const idsOf = (message: AIMessage) => (message.tool_calls ?? []).map((call) => call.id);

describe("ChatOpenAI and completion ids", () => {
  it("the message id is the completion id, streamed and not", async () => {
    for (const profile of ["default", "ollama", "fixed", "vllm"] as const) {
      const { stream, invoke } = await bothWays({ profile }, { content: "hello" });
      expect(stream.id, profile).toBe(invoke.id);
      expect(stream.id, profile).toMatch(/^chatcmpl-/);
    }
  });

  it("a repeated completion id makes LangGraph's messages reducer replace the earlier reply (fixed ids, or a restarted counter)", async () => {
    const fixed = await start({ script: ["first answer", "second answer"], profile: "fixed" });
    let thread: BaseMessage[] = messagesStateReducer([], [new HumanMessage("q1"), await invoked(fixed)]);
    thread = messagesStateReducer(thread, [new HumanMessage("q2"), await invoked(fixed)]);
    expect(thread.map((message) => [message.getType(), message.content])).toEqual([
      ["human", "q1"],
      ["ai", "second answer"],
      ["human", "q2"],
    ]);

    const before = await start({ script: ["before the restart", "after the restart"] });
    const first = await invoked(before);
    const after = await restartServer(before);
    servers.push(after);
    const second = await invoked(after);
    expect([first.id, second.id]).toEqual(["chatcmpl-1", "chatcmpl-1"]);
    const merged = messagesStateReducer([new HumanMessage("a"), first], [new HumanMessage("b"), second]);
    expect(merged.filter((message) => message.getType() === "ai").map((message) => message.content)).toEqual([
      "after the restart",
    ]);
  });
});

describe("ChatOpenAI and tool-call ids", () => {
  it("unique ids (openai, ollama, deepseek, mistral, kimi) come through as tool_calls, streamed and not", async () => {
    for (const profile of ["openai", "ollama", "deepseek", "mistral", "kimi"] as const) {
      const { stream, invoke } = await bothWays({ profile }, twoCalls);
      expect(idsOf(stream), profile).toEqual(idsOf(invoke));
      expect(new Set(idsOf(stream)).size, profile).toBe(2);
      expect(stream.tool_calls!.map((call) => call.args)).toEqual([{ text: 'say "é" 😀' }, { n: 2 }]);
      expect(stream.invalid_tool_calls, profile).toEqual([]);
    }
  });

  it("missing ids (llama-cpp-old): streamed, both calls land in invalid_tool_calls as 'Malformed args.'; invoked, tool_calls without id", async () => {
    const { stream, invoke } = await bothWays({ profile: "llama-cpp-old" }, twoCalls);
    expect(stream.tool_calls).toEqual([]);
    expect(stream.invalid_tool_calls).toEqual([
      { name: "alpha", args: '{"text":"say \\"é\\" 😀"}', error: "Malformed args.", type: "invalid_tool_call" },
      { name: "beta", args: '{"n":2}', error: "Malformed args.", type: "invalid_tool_call" },
    ]);
    expect(invoke.tool_calls!.map((call) => [call.name, call.id])).toEqual([
      ["alpha", undefined],
      ["beta", undefined],
    ]);
    expect(invoke.invalid_tool_calls).toEqual([]);
  });

  it("empty ids (lm-studio): streamed, invalid_tool_calls with id ''; invoked, tool_calls with id ''", async () => {
    const { stream, invoke } = await bothWays({ profile: "lm-studio" }, twoCalls);
    expect(stream.tool_calls).toEqual([]);
    expect(stream.invalid_tool_calls!.map((call) => [call.name, call.id, call.error])).toEqual([
      ["alpha", "", "Malformed args."],
      ["beta", "", "Malformed args."],
    ]);
    expect(idsOf(invoke)).toEqual(["", ""]);
  });

  it("one shared id (xinference): both calls keep it, streamed and not", async () => {
    const { stream, invoke } = await bothWays({ profile: "xinference" }, twoCalls);
    for (const message of [stream, invoke]) {
      expect(message.tool_calls).toHaveLength(2);
      expect(new Set(idsOf(message)).size).toBe(1);
    }
  });

  it("a fresh id on every delta (old vLLM): streamed, each call is split into several nameless fragments", async () => {
    const { stream, invoke } = await bothWays({ profile: "vllm" }, twoCalls);
    expect(invoke.tool_calls).toHaveLength(2);
    const fragments = [...stream.tool_calls!, ...stream.invalid_tool_calls!];
    expect(fragments.length).toBeGreaterThan(2);
    expect(fragments.filter((call) => call.name === "alpha")).toHaveLength(1);
    expect(fragments.some((call) => call.name === "")).toBe(true);
  });

  it("per-response ids (call_0, call_1) repeat across replies, and ChatOpenAI passes them through", async () => {
    const server = await start({ script: [twoCalls, twoCalls], profile: { toolCallIds: "per-response" } });
    expect(idsOf(await streamed(server))).toEqual(["call_0", "call_1"]);
    expect(idsOf(await invoked(server))).toEqual(["call_0", "call_1"]);
  });
});

describe("ChatOpenAI and reply quirks", () => {
  it.each(["single-quotes", "trailing-text"] as const)(
    "invalidArguments %s: invalid_tool_calls ('Malformed args.' streamed, a 'not valid JSON' text invoked), no tool_calls",
    async (invalidArguments) => {
      const { stream, invoke } = await bothWays({}, { ...twoCalls, invalidArguments });
      expect(stream.tool_calls).toEqual([]);
      expect(stream.invalid_tool_calls!.map((call) => [call.name, call.id, call.error])).toEqual([
        ["alpha", "call_1_1", "Malformed args."],
        ["beta", "call_1_2", "Malformed args."],
      ]);
      expect(invoke.tool_calls).toEqual([]);
      expect(invoke.invalid_tool_calls!.map((call) => call.error)).toEqual([
        expect.stringMatching(/^Function "alpha" arguments:\n\n[\s\S]*\n\nare not valid JSON\.\nError: /),
        expect.stringMatching(/^Function "beta" arguments:/),
      ]);
      expect(stream.response_metadata.finish_reason).toBe("tool_calls");
    },
  );

  it("cutOff with tool calls: streamed, the cut call is a tool_call with args {} (partial JSON); invoked, an invalid_tool_call; finish_reason length", async () => {
    const { stream, invoke } = await bothWays({}, { ...twoCalls, cutOff: true });
    expect(stream.tool_calls!.map((call) => [call.name, call.args])).toEqual([
      ["alpha", { text: 'say "é" 😀' }],
      ["beta", {}],
    ]);
    expect(stream.invalid_tool_calls).toEqual([]);
    expect(invoke.tool_calls!.map((call) => call.name)).toEqual(["alpha"]);
    expect(invoke.invalid_tool_calls!.map((call) => [call.name, call.args])).toEqual([["beta", '{"n"']]);
    for (const message of [stream, invoke]) expect(message.response_metadata.finish_reason).toBe("length");
  });

  it("cutOff with text: half the text, finish_reason length", async () => {
    const { stream, invoke } = await bothWays({}, { content: "one two three four", cutOff: true });
    for (const message of [stream, invoke]) {
      expect(message.content).toBe("one two t");
      expect(message.response_metadata.finish_reason).toBe("length");
    }
  });

  it.each([
    ["stop", "stop"],
    ["function_call", "function_call"],
    [null, undefined],
    ["omit", undefined],
  ] as const)(
    "finishReason %s with tool calls: finish_reason %s, the tool calls kept",
    async (finishReason, expected) => {
      const { stream, invoke } = await bothWays({}, { ...twoCalls, finishReason });
      for (const message of [stream, invoke]) {
        expect(message.response_metadata.finish_reason).toBe(expected);
        expect(message.tool_calls).toHaveLength(2);
      }
    },
  );

  it("awkward and interleaved chunking and ids on every delta: the calls come out whole", async () => {
    for (const reply of [
      { ...twoCalls, toolCallChunks: "awkward" },
      { ...twoCalls, toolCallChunks: "interleaved" },
    ] as const) {
      const message = await streamed(await start({ script: [reply] }));
      expect(message.tool_calls!.map((call) => [call.name, call.id, call.args])).toEqual([
        ["alpha", "call_1_1", { text: 'say "é" 😀' }],
        ["beta", "call_1_2", { n: 2 }],
      ]);
    }
    const same = await streamed(await start({ script: [twoCalls], profile: { idOnEveryChunk: "same" } }));
    expect(idsOf(same)).toEqual(["call_1_1", "call_1_2"]);
  });

  it("a name split across deltas: streamed, ChatOpenAI keeps only the second half", async () => {
    const message = await streamed(await start({ script: [{ ...twoCalls, splitName: true }] }));
    expect(message.tool_calls!.map((call) => call.name)).toEqual(["ha", "ta"]);
  });

  it("omitUsage: streamed, no usage_metadata; invoked, a usage_metadata without token counts", async () => {
    const { stream, invoke } = await bothWays({}, { content: "hi", omitUsage: true });
    expect(stream.usage_metadata).toBeUndefined();
    expect(invoke.usage_metadata).toBeDefined();
    expect(invoke.usage_metadata!.input_tokens).toBeUndefined();
    expect(invoke.usage_metadata!.total_tokens).toBeUndefined();
  });
});
