import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { cancelledToolMessageId, repairDanglingToolCalls } from "./repair-dangling-tool-calls.js";

const ai = (id: string, ...calls: string[]) =>
  new AIMessage({
    content: "",
    id,
    tool_calls: calls.map((call) => ({ name: "job", args: {}, id: call, type: "tool_call" as const })),
  });
const answer = (call: string) => new ToolMessage({ content: `answer ${call}`, tool_call_id: call });

describe("repairDanglingToolCalls", () => {
  it("returns the same array when every call is answered in place", () => {
    const history = [new HumanMessage("hi"), ai("a", "c1", "c2"), answer("c2"), answer("c1"), new AIMessage("done")];
    const repaired = repairDanglingToolCalls(history);
    expect(repaired.messages).toBe(history);
    expect(repaired.repairs).toEqual([]);
  });

  it("answers each unanswered call of a cancelled step right after its AI message", () => {
    const history = [new HumanMessage("hi"), ai("a", "c1", "c2"), answer("c1"), new HumanMessage("again")];
    const { messages, repairs } = repairDanglingToolCalls(history);
    expect(repairs.map((message) => message.tool_call_id)).toEqual(["c2"]);
    expect(repairs[0]!.id).toBe(cancelledToolMessageId("c2"));
    expect(repairs[0]!.status).toBe("error");
    expect(messages.map((message) => message.getType())).toEqual(["human", "ai", "tool", "tool", "human"]);
    expect(messages[3]!.text).toContain("cancelled");
  });

  it("moves an answer stored later (a persisted repair) next to its call, without adding another", () => {
    const history = [ai("a", "c1"), new HumanMessage("again"), answer("c1"), new AIMessage("ok")];
    const { messages, repairs } = repairDanglingToolCalls(history);
    expect(repairs).toEqual([]);
    expect(messages.map((message) => message.getType())).toEqual(["ai", "tool", "human", "ai"]);
  });

  it("repairs an AI message with tool calls at the very end", () => {
    const { messages, repairs } = repairDanglingToolCalls([new HumanMessage("hi"), ai("a", "c9")]);
    expect(repairs).toHaveLength(1);
    expect(messages.at(-1)!.getType()).toBe("tool");
  });
});
