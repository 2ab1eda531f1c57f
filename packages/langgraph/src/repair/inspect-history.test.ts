import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { inspectHistory } from "./inspect-history.js";
import { repairDanglingToolCalls } from "./repair-dangling-tool-calls.js";

const ai = (id: string, ...calls: string[]) =>
  new AIMessage({
    content: "",
    id,
    tool_calls: calls.map((call) => ({ name: "job", args: {}, id: call, type: "tool_call" as const })),
  });
const answer = (call: string) => new ToolMessage({ content: `answer ${call}`, tool_call_id: call });

describe("inspectHistory", () => {
  it("finds nothing in a sound history", () => {
    const history = [new HumanMessage({ content: "hi", id: "h" }), ai("a", "c1"), answer("c1"), new AIMessage("done")];
    expect(inspectHistory(history)).toEqual({ problems: [], sound: true });
  });

  it("reports the damage of a stored history as data: index, ids, code", () => {
    const replaced = new AIMessage({ content: "the later reply", id: "chatcmpl-1" });
    const history = [
      new HumanMessage({ content: "hi", id: "h1" }),
      replaced, // 1: replaced the AI message whose call call_9 was answered below
      answer("call_9"), // 2: orphan
      new HumanMessage({ content: "again", id: "h2" }),
      ai("chatcmpl-2", "call_0"), // 4
      answer("call_0"), // 5
      ai("chatcmpl-2", "call_0", ""), // 6: same message id, repeated call id, empty call id; both unanswered
      new AIMessage({ content: "", id: "chatcmpl-3" }), // 7: empty
    ];
    const { problems, sound } = inspectHistory(history);
    expect(sound).toBe(false);
    expect(problems.map((p) => [p.code, p.index, p.callIndex])).toEqual([
      ["orphan-result", 2, undefined],
      ["duplicate-message-id", 6, undefined],
      ["unanswered-call", 6, 0],
      ["duplicate-tool-call-id", 6, 0],
      ["unanswered-call", 6, 1],
      ["empty-tool-call-id", 6, 1],
      ["empty-ai-message", 7, undefined],
    ]);
    expect(problems[0]).toMatchObject({ toolCallId: "call_9", severity: "error", fixedInRequests: true });
    expect(problems[1]).toMatchObject({ messageId: "chatcmpl-2", relatedIndex: 4, severity: "warning" });
    expect(problems[3]).toMatchObject({ toolCallId: "call_0", relatedIndex: 4, messageId: "chatcmpl-2" });
    for (const problem of problems) expect(problem.detail.length).toBeGreaterThan(10);
  });

  it("after the request-time repair, only what it cannot change is left: message ids and empty AI messages", () => {
    const history = [
      ai("x", "call_0"),
      answer("call_0"),
      answer("call_0"),
      ai("x", "call_0", ""),
      new AIMessage({ content: "", id: "e" }),
    ];
    const codes = inspectHistory(repairDanglingToolCalls(history).messages).problems.map((p) => p.code);
    expect(codes).toEqual(["duplicate-message-id", "empty-ai-message"]);
    expect(
      inspectHistory(history)
        .problems.filter((p) => p.fixedInRequests)
        .map((p) => p.code)
        .sort(),
    ).toEqual(["duplicate-tool-call-id", "empty-tool-call-id", "orphan-result", "unanswered-call", "unanswered-call"]);
  });

  it("flags a call whose arguments did not parse; sent raw without parsed calls, it also needs a result", () => {
    const broken = new AIMessage({
      content: "",
      id: "b",
      tool_calls: [],
      invalid_tool_calls: [{ name: "job", args: "{oops", id: "call_1", error: "bad JSON", type: "invalid_tool_call" }],
      additional_kwargs: {
        tool_calls: [{ id: "call_1", type: "function", function: { name: "job", arguments: "{oops" } }],
      },
    });
    const { problems } = inspectHistory([new HumanMessage("go"), broken]);
    expect(problems.map((p) => [p.code, p.index, p.toolCallId, p.severity, p.fixedInRequests])).toEqual([
      ["unanswered-call", 1, "call_1", "error", true],
      ["invalid-tool-call", 1, "call_1", "warning", false],
    ]);
    expect(problems[1]!.detail).toContain("bad JSON");
    const sent = repairDanglingToolCalls([new HumanMessage("go"), broken]);
    expect(inspectHistory(sent.messages).problems.map((p) => p.code)).toEqual(["invalid-tool-call"]);
  });
});
