import { afterEach, describe, expect, it } from "vitest";
import {
  PROFILE_PRESETS,
  restartServer,
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
  type ProfilePresetName,
} from "./openai-compatible-server.js";
import { chatJson, chunksOf, streamChat, toolDeltasOf } from "./openai-compatible-server/wire-client.js";

const servers: OpenAICompatibleServer[] = [];
const start = async (...args: Parameters<typeof startOpenAICompatibleServer>) => {
  const server = await startOpenAICompatibleServer(...args);
  servers.push(server);
  return server;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const twoCalls = {
  toolCalls: [
    { name: "alpha", arguments: { a: 1 } },
    { name: "beta", arguments: { b: 2 } },
  ],
};
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}";

/** What each preset's ids look like on the wire: completion id, and tool-call ids by position (null: no `id` field). */
const EXPECTED: Record<ProfilePresetName, { completion: RegExp; tools: [RegExp | null, RegExp | null] }> = {
  default: { completion: /^chatcmpl-[12]$/, tools: [/^call_[12]_1$/, /^call_[12]_2$/] },
  openai: { completion: /^chatcmpl-[A-Za-z0-9]{29}$/, tools: [/^call_[A-Za-z0-9]{24}$/, /^call_[A-Za-z0-9]{24}$/] },
  ollama: { completion: /^chatcmpl-\d{1,3}$/, tools: [/^call_[a-z0-9]{8}$/, /^call_[a-z0-9]{8}$/] },
  "llama-cpp-old": { completion: /^chatcmpl-[A-Za-z0-9]{29}$/, tools: [null, null] },
  "lm-studio": { completion: /^chatcmpl-[A-Za-z0-9]{29}$/, tools: [/^$/, /^$/] },
  deepseek: {
    completion: new RegExp(`^${UUID}$`),
    tools: [/^call_00_[A-Za-z0-9]{20}\d{4}$/, /^call_01_[A-Za-z0-9]{20}\d{4}$/],
  },
  xinference: {
    completion: new RegExp(`^chatcmpl-${UUID}$`),
    tools: [new RegExp(`^call_${UUID}$`), new RegExp(`^call_${UUID}$`)],
  },
  vllm: {
    completion: /^chatcmpl-[0-9a-f]{32}$/,
    tools: [/^chatcmpl-tool-[0-9a-f]{32}$/, /^chatcmpl-tool-[0-9a-f]{32}$/],
  },
  kimi: { completion: /^chatcmpl-[0-9a-f]{32}$/, tools: [/^functions\.alpha:0$/, /^functions\.beta:1$/] },
  mistral: { completion: /^chatcmpl-[0-9a-f]{32}$/, tools: [/^[A-Za-z0-9]{9}$/, /^[A-Za-z0-9]{9}$/] },
  fixed: { completion: /^chatcmpl-fixed$/, tools: [/^call_[A-Za-z0-9]{24}$/, /^call_[A-Za-z0-9]{24}$/] },
};

/** The first delta of each tool call in a stream (the one that opens it), by index. */
const openingDeltas = (deltas: ReturnType<typeof toolDeltasOf>) =>
  [0, 1].map((index) => deltas.find((delta) => delta.index === index)!);

describe("endpoint profiles: ids on the wire", () => {
  it.each(Object.keys(PROFILE_PRESETS) as ProfilePresetName[])(
    "%s: completion and tool-call ids, without streaming and streamed",
    async (name) => {
      const expected = EXPECTED[name];
      const server = await start({ script: [twoCalls, twoCalls], profile: name, seed: 7 });
      const { json } = await chatJson(server.url);
      expect(json!.id).toMatch(expected.completion);
      const calls = json!.choices[0].message.tool_calls as Array<Record<string, unknown>>;
      calls.forEach((call, position) => {
        const pattern = expected.tools[position as 0 | 1];
        if (pattern === null) expect(call).not.toHaveProperty("id");
        else expect(call.id).toMatch(pattern);
      });

      const { events } = await streamChat(server.url, {});
      const chunks = chunksOf(events);
      expect(server.completions.map((sent) => sent.completionId)).toEqual([json!.id, chunks[0]!.id]);
      expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
      expect(chunks[0]!.id).toMatch(expected.completion);
      const deltas = toolDeltasOf(chunks);
      openingDeltas(deltas).forEach((delta, position) => {
        const pattern = expected.tools[position as 0 | 1];
        if (pattern === null) expect(delta).not.toHaveProperty("id");
        else expect(delta.id).toMatch(pattern);
      });
      if (expected.tools[0] === null) expect(deltas.every((delta) => !("id" in delta))).toBe(true);
      expect(events.at(-1)).toBe("[DONE]");
    },
  );

  it("xinference gives every tool call of a response one id derived from the completion id", async () => {
    const server = await start({ script: [twoCalls], profile: "xinference", seed: 1 });
    const { json } = await chatJson(server.url);
    const ids = (json!.choices[0].message.tool_calls as Array<{ id: string }>).map((call) => call.id);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[0]).toBe(`call_${String(json!.id).replace("chatcmpl-", "")}`);
  });

  it("per-response tool-call ids repeat across responses: call_0, call_1 every time", async () => {
    const server = await start({ script: [twoCalls, twoCalls], profile: { toolCallIds: "per-response" } });
    for (let i = 0; i < 2; i++) {
      const { json } = await chatJson(server.url);
      expect((json!.choices[0].message.tool_calls as Array<{ id: string }>).map((call) => call.id)).toEqual([
        "call_0",
        "call_1",
      ]);
    }
  });

  it("a seed makes the random ids reproducible; another seed gives others", async () => {
    const idsFor = async (seed: number) => {
      const server = await start({ script: [twoCalls], profile: "openai", seed });
      const { json } = await chatJson(server.url);
      return [json!.id, ...(json!.choices[0].message.tool_calls as Array<{ id: string }>).map((call) => call.id)];
    };
    const first = await idsFor(42);
    expect(await idsFor(42)).toEqual(first);
    expect(await idsFor(43)).not.toEqual(first);
  });

  it("a scripted tool call's explicit id wins under every profile", async () => {
    for (const profile of Object.keys(PROFILE_PRESETS) as ProfilePresetName[]) {
      const server = await start({ script: [{ toolCalls: [{ id: "call_mine", name: "alpha" }] }], profile });
      const { json } = await chatJson(server.url);
      expect(json!.choices[0].message.tool_calls[0].id, profile).toBe("call_mine");
    }
  });

  it("ollama: completion ids are chatcmpl-0..998, so a thread of at most 1000 completions repeats one (pigeonhole)", async () => {
    const server = await start({ script: ["ok"], loop: true, profile: "ollama", seed: 5 });
    const seen = new Map<string, number>();
    let repeat: [number, number] | undefined;
    for (let request = 0; request < 1000 && repeat === undefined; request++) {
      const { json } = await chatJson(server.url);
      const id = String(json!.id);
      expect(Number(id.slice("chatcmpl-".length))).toBeLessThanOrEqual(998);
      if (seen.has(id)) repeat = [seen.get(id)!, request];
      seen.set(id, request);
    }
    // With seed 5 the repeat comes long before the bound; the bound itself guarantees one.
    expect(repeat, "no repeated completion id within 1000 requests").toBeDefined();
  });

  it("fixed: every completion has the same id, streamed or not", async () => {
    const server = await start({ script: ["a", "b"], profile: "fixed" });
    expect((await chatJson(server.url)).json!.id).toBe("chatcmpl-fixed");
    expect(chunksOf((await streamChat(server.url, {})).events)[0]!.id).toBe("chatcmpl-fixed");
  });
});

describe("endpoint profiles: a server refusing repeated tool-call ids (deepseek)", () => {
  const history = (secondId: string) => [
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_a", type: "function", function: { name: "x", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "call_a", content: "1" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: secondId, type: "function", function: { name: "x", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: secondId, content: "2" },
  ];

  it("answers 400 naming the id and the message, without using a script entry; unique ids pass", async () => {
    const server = await start({ script: ["answered"], profile: "deepseek" });
    const refused = await chatJson(server.url, { messages: history("call_a") });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({
      error: {
        message: "Duplicate value for 'tool_call_id' of call_a in message[3]",
        type: "invalid_request_error",
        param: null,
        code: "invalid_request_error",
      },
    });
    expect(server.requests[0]!.scriptPosition).toBeUndefined();
    const accepted = await chatJson(server.url, { messages: history("call_b") });
    expect(accepted.json!.choices[0].message.content).toBe("answered");
    expect(server.errors).toEqual(["Duplicate value for 'tool_call_id' of call_a in message[3]"]);
  });
});

describe("restarting: startAt and restartServer", () => {
  it("startAt skips script entries and the id counters start from 1", async () => {
    const server = await start({ script: ["one", "two", "three"], startAt: 1 });
    const first = await chatJson(server.url);
    expect(first.json!.choices[0].message.content).toBe("two");
    expect(first.json!.id).toBe("chatcmpl-1");
    expect(server.requests[0]).toMatchObject({ index: 0, scriptPosition: 1 });
    await chatJson(server.url);
    const exhausted = await chatJson(server.url);
    expect(exhausted.status).toBe(400);
    expect(exhausted.json!.error.message).toContain(
      "script exhausted: request 3 (started at entry 1) but only 3 replies",
    );
  });

  it("restartServer continues the script on a new server whose ids repeat the first server's", async () => {
    const script = [twoCalls, twoCalls, twoCalls];
    const first = await start({ script, profile: "ollama", seed: 9 });
    const before = (await chatJson(first.url)).json!;
    const second = await restartServer(first);
    servers.push(second);
    expect(second.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/); // the same port when free; read the new url either way
    expect(second.options.startAt).toBe(1);
    const after = (await chatJson(second.url)).json!;
    expect(second.requests[0]).toMatchObject({ index: 0, scriptPosition: 1 });
    // Same seed, a fresh process: the same completion id and tool-call ids as the first server's first reply.
    expect(after.id).toBe(before.id);
    expect(after.choices[0].message.tool_calls.map((call: { id: string }) => call.id)).toEqual(
      before.choices[0].message.tool_calls.map((call: { id: string }) => call.id),
    );
    const third = await restartServer(second, { seed: 10 });
    servers.push(third);
    expect((await chatJson(third.url)).json!.id).not.toBe(before.id);
    expect(third.requests[0]!.scriptPosition).toBe(2);
  });

  it("the default counter restarts too: chatcmpl-1 and call_1_1 again after a restart", async () => {
    const first = await start({ script: [twoCalls, twoCalls] });
    const before = (await chatJson(first.url)).json!;
    const second = await restartServer(first);
    servers.push(second);
    const after = (await chatJson(second.url)).json!;
    expect([before.id, after.id]).toEqual(["chatcmpl-1", "chatcmpl-1"]);
    expect(after.choices[0].message.tool_calls[0].id).toBe("call_1_1");
    for (const server of [first, second])
      expect(server.completions).toEqual([
        {
          requestIndex: 0,
          completionId: "chatcmpl-1",
          toolCallIds: ["call_1_1", "call_1_2"],
          finishReason: "tool_calls",
        },
      ]);
  });
});
