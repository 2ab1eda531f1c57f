import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { refusedCall, refusedCallMessage } from "./refused-call.js";
import { settledReplyRecord, settleModelReply } from "./settle-model-reply.js";

const call = (id: string | undefined, name = "read_skill") => ({
  id,
  name,
  args: { name: "x" },
  type: "tool_call" as const,
});

describe("settleModelReply", () => {
  it("gives every reply an id of its own and keeps the endpoint's in response_metadata", () => {
    const first = settleModelReply(new AIMessage({ content: "a", id: "chatcmpl-1" }), []);
    const second = settleModelReply(new AIMessage({ content: "b", id: "chatcmpl-1" }), [first]);
    expect(first.id).not.toBe("chatcmpl-1");
    expect(second.id).not.toBe(first.id);
    expect(settledReplyRecord(first)?.providerMessageId).toBe("chatcmpl-1");
    expect(settledReplyRecord(second)?.providerMessageId).toBe("chatcmpl-1");
  });

  it("writes no record when there is nothing to record, and replaces one the reply carried", () => {
    const bare = settleModelReply(new AIMessage({ content: "a", response_metadata: { model: "m" } }), []);
    expect(settledReplyRecord(bare)).toBeUndefined();
    expect(bare.response_metadata).toEqual({ model: "m" });
    const carried = new AIMessage({ content: "b", response_metadata: { skillgraph: { providerMessageId: "old" } } });
    expect(settledReplyRecord(settleModelReply(carried, []))).toBeUndefined();
    const again = new AIMessage({
      content: "c",
      id: "chatcmpl-9",
      response_metadata: { skillgraph: { cutOff: true } },
    });
    expect(settledReplyRecord(settleModelReply(again, []))).toEqual({ providerMessageId: "chatcmpl-9" });
  });

  it("stores no undefined field for what the reply lacks (a saver writes each as a marker object)", async () => {
    const serde = new MemorySaver().serde;
    const text = async (message: AIMessage) =>
      new TextDecoder().decode((await serde.dumpsTyped(message))[1] as Uint8Array);
    const settled = settleModelReply(new AIMessage({ content: "", id: "chatcmpl-1", tool_calls: [call("c1")] }), []);
    expect(await text(settled)).not.toContain('"undefined"');
    const full = new AIMessage({
      content: "x",
      name: "model",
      usage_metadata: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
    });
    const kept = settleModelReply(full, []);
    expect([kept.name, kept.usage_metadata?.total_tokens]).toEqual(["model", 3]);
  });

  it("keeps an endpoint's call id that the thread does not use yet", () => {
    const settled = settleModelReply(new AIMessage({ content: "", tool_calls: [call("call_abc")] }), []);
    expect(settled.tool_calls?.[0]?.id).toBe("call_abc");
    expect(settledReplyRecord(settled)?.providerToolCallIds).toBeUndefined();
  });

  it("renames a call id answered earlier in the thread, repeated in the reply, empty or missing", () => {
    const history = [
      new HumanMessage("hi"),
      new AIMessage({ content: "", id: "m1", tool_calls: [call("call_0")] }),
      new ToolMessage({ content: "done", tool_call_id: "call_0" }),
    ];
    const reply = new AIMessage({
      content: "",
      tool_calls: [call("call_0"), call("dup"), call("dup"), call(""), call(undefined)],
    });
    const settled = settleModelReply(reply, history);
    const ids = settled.tool_calls!.map((c) => c.id!);
    expect(new Set([...ids, "call_0"]).size).toBe(ids.length + 1);
    expect(ids[1]).toBe("dup");
    expect(ids.every((id) => id.length > 0)).toBe(true);
    const renamed = settledReplyRecord(settled)!.providerToolCallIds!;
    expect(renamed[ids[0]!]).toBe("call_0");
    expect(renamed[ids[2]!]).toBe("dup");
    expect(renamed[ids[3]!]).toBe("");
    expect(Object.keys(renamed)).toHaveLength(3);
  });

  it("renames a nine-character id to another nine-character id (Mistral checks the shape)", () => {
    const history = [new AIMessage({ content: "", tool_calls: [call("Ab3dE5gH9")] })];
    const settled = settleModelReply(new AIMessage({ content: "", tool_calls: [call("Ab3dE5gH9")] }), history);
    expect(settled.tool_calls![0]!.id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(settled.tool_calls![0]!.id).not.toBe("Ab3dE5gH9");
  });

  it("turns calls whose arguments are not JSON into calls the runtime refuses, with the raw text kept", () => {
    const reply = new AIMessage({
      content: "",
      tool_calls: [],
      invalid_tool_calls: [
        { id: "call_1", name: "run", args: "{'path': 'a'}", error: "Unexpected token", type: "invalid_tool_call" },
      ],
    });
    const settled = settleModelReply(reply, []);
    expect(settled.invalid_tool_calls).toEqual([]);
    expect(settled.tool_calls).toEqual([{ id: "call_1", name: "run", args: {}, type: "tool_call" }]);
    const refusal = refusedCall([settled], "call_1");
    expect(refusal).toMatchObject({ reason: "invalid-arguments", rawArguments: "{'path': 'a'}" });
    const answer = refusedCallMessage(refusal!, { id: "call_1", name: "run" });
    expect(answer.status).toBe("error");
    expect(String(answer.content)).toContain("not valid JSON");
    expect(String(answer.content)).toContain("{'path': 'a'}");
  });

  it("refuses every call of a reply cut off by the token limit and flags the reply", () => {
    const reply = new AIMessage({
      content: "Running it",
      tool_calls: [call("call_1")],
      invalid_tool_calls: [
        {
          id: "call_2",
          name: "run",
          args: '{"path": "out/rep',
          error: "Unterminated string",
          type: "invalid_tool_call",
        },
      ],
      response_metadata: { finish_reason: "length" },
    });
    const settled = settleModelReply(reply, []);
    expect(settledReplyRecord(settled)?.cutOff).toBe(true);
    expect(refusedCall([settled], "call_1")?.reason).toBe("cut-off");
    expect(refusedCall([settled], "call_2")?.reason).toBe("cut-off");
    expect(
      settleModelReply(new AIMessage({ content: "half an ans", response_metadata: { finish_reason: "length" } }), []),
    ).toSatisfy((message: AIMessage) => settledReplyRecord(message)?.cutOff === true);
  });

  it("renames tool_use content blocks with their call and drops the endpoint's stale raw calls", () => {
    const history = [new AIMessage({ content: "", tool_calls: [call("toolu_1")] })];
    const reply = new AIMessage({
      content: [
        { type: "text", text: "x" },
        { type: "tool_use", id: "toolu_1", name: "read_skill", input: { name: "x" } },
      ],
      tool_calls: [call("toolu_1")],
      additional_kwargs: {
        tool_calls: [{ id: "toolu_1", type: "function", function: { name: "read_skill", arguments: "{}" } }],
      },
    });
    const settled = settleModelReply(reply, history);
    const id = settled.tool_calls![0]!.id;
    expect((settled.content as Array<{ id?: string }>)[1]!.id).toBe(id);
    expect(settled.additional_kwargs.tool_calls).toBeUndefined();
  });

  it("leaves no two calls or results of a thread with one id, whatever ids the endpoint sends", () => {
    const idArbitrary = fc.option(fc.constantFrom("", "call_0", "call_1", "x", "Ab3dE5gH9"), { nil: undefined });
    fc.assert(
      fc.property(
        fc.array(fc.array(idArbitrary, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }),
        (replies) => {
          const thread: Array<AIMessage | ToolMessage> = [];
          for (const ids of replies) {
            const settled = settleModelReply(
              new AIMessage({ content: "", id: "chatcmpl-1", tool_calls: ids.map((id) => call(id)) }),
              thread,
            );
            thread.push(
              settled,
              ...settled.tool_calls!.map((c) => new ToolMessage({ content: "ok", tool_call_id: c.id! })),
            );
          }
          const callIds = thread.flatMap((message) =>
            message instanceof AIMessage ? message.tool_calls!.map((c) => c.id!) : [],
          );
          const messageIds = thread.filter((message) => message instanceof AIMessage).map((message) => message.id);
          expect(new Set(callIds).size).toBe(callIds.length);
          expect(new Set(messageIds).size).toBe(messageIds.length);
          expect(callIds.every((id) => id !== "")).toBe(true);
        },
      ),
    );
  });
});
