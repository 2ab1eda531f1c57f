import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { messagesDeltaReducer } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { inspectHistory } from "./inspect-history.js";
import { renameRepeatedToolCallIds } from "./rename-repeated-tool-call-ids.js";

const ai = (id: string | undefined, ...calls: string[]) =>
  new AIMessage({
    content: "",
    ...(id ? { id } : {}),
    tool_calls: calls.map((call) => ({ name: "job", args: { call }, id: call, type: "tool_call" as const })),
    additional_kwargs: {
      tool_calls: calls.map((call) => ({
        id: call,
        type: "function" as const,
        function: { name: "job", arguments: "{}" },
      })),
    },
  });
const answer = (call: string, id?: string) =>
  new ToolMessage({ content: `answer ${call}`, tool_call_id: call, ...(id ? { id } : {}) });

describe("renameRepeatedToolCallIds", () => {
  it("writes nothing for a history without repeated or empty ids", () => {
    const history = [new HumanMessage("hi"), ai("a", "c1"), answer("c1", "t1")];
    expect(renameRepeatedToolCallIds(history)).toEqual({ messages: [], history, renamed: [], kept: [] });
  });

  it("renames a repeated call and its result in place: the messages reducer replaces them, deleting nothing", () => {
    const history: BaseMessage[] = [
      new HumanMessage({ content: "hi", id: "h" }),
      ai("a1", "call_0"),
      answer("call_0", "t1"),
      ai("a2", "call_0", ""),
      answer("call_0", "t2"),
      answer("", "t3"),
    ];
    const renaming = renameRepeatedToolCallIds(history);
    expect(renaming.renamed).toEqual([
      { index: 3, callIndex: 0, from: "call_0", to: "call_0-skillgraph-1" },
      { index: 3, callIndex: 1, from: "", to: "call-skillgraph-0" },
    ]);
    expect(renaming.messages.map((message) => message.id)).toEqual(["a2", "t2", "t3"]);
    const stored = messagesDeltaReducer(history, [renaming.messages]) as BaseMessage[];
    expect(stored).toHaveLength(history.length);
    expect(stored.map((message) => message.id)).toEqual(history.map((message) => message.id));
    expect(stored).toEqual(renaming.history);
    expect(inspectHistory(stored)).toEqual({ problems: [], sound: true });
    const renamedAI = stored[3] as AIMessage;
    expect(renamedAI.tool_calls!.map((call) => [call.id, call.args])).toEqual([
      ["call_0-skillgraph-1", { call: "call_0" }],
      ["call-skillgraph-0", { call: "" }],
    ]);
    expect((renamedAI.additional_kwargs.tool_calls as Array<{ id: string }>).map((raw) => raw.id)).toEqual([
      "call_0-skillgraph-1",
      "call-skillgraph-0",
    ]);
    expect((stored[4] as ToolMessage).text).toBe("answer call_0");
    expect(history[3]).not.toBe(stored[3]);
    expect((history[3] as AIMessage).tool_calls![0]!.id).toBe("call_0");
  });

  it("keeps a call whose AI message or result cannot be replaced by id, saying why", () => {
    const history: BaseMessage[] = [
      ai("a1", "call_0"),
      answer("call_0", "t1"),
      ai("a2", "call_0"),
      answer("call_0"),
      ai(undefined, "call_0"),
      ai("dup", "call_0"),
      new HumanMessage({ content: "x", id: "dup" }),
    ];
    const renaming = renameRepeatedToolCallIds(history);
    expect(renaming.messages).toEqual([]);
    expect(renaming.kept.map((kept) => [kept.index, kept.reason])).toEqual([
      [2, expect.stringContaining("its result (message 3) has no message id")],
      [4, expect.stringContaining("its AI message (message 4) has no message id")],
      [5, expect.stringContaining("shares its message id 'dup'")],
    ]);
  });
});
