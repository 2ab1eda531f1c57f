import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { orderOutputs, pendingCalls, toolNodeTools } from "./gated-tool-node.js";
import { createTestTools } from "../__fixtures__/test-skills.js";

const call = (id: string, name = "noop") => ({ name, args: {}, id, type: "tool_call" as const });

describe("gated tool node helpers", () => {
  it("picks the unanswered calls of the last AI message, as LangGraph's ToolNode does", () => {
    const ai = new AIMessage({ content: "", tool_calls: [call("a"), call("b")] });
    const picked = pendingCalls([new HumanMessage("x"), ai, new ToolMessage({ content: "done", tool_call_id: "a" })]);
    expect(picked.index).toBe(1);
    expect(picked.calls.map((pending) => pending.id)).toEqual(["b"]);
    expect(pendingCalls([new HumanMessage("x")]).calls).toEqual([]);
  });

  it("orders answers by call order, keeps a stray ToolMessage, and passes commands through", () => {
    const answered = new Map([["b", new ToolMessage({ content: "gate", tool_call_id: "b" })]]);
    const command = new Command({ update: {} });
    const outputs = [
      new ToolMessage({ content: "stray", tool_call_id: "zzz" }),
      command,
      new ToolMessage({ content: "tool", tool_call_id: "a" }),
    ];
    const { messages, rest } = orderOutputs([call("a"), call("b")], answered, outputs);
    expect(messages.map((message) => message.text)).toEqual(["tool", "gate", "stray"]);
    expect(rest).toEqual([command]);
  });

  it("lets the interceptor's served tools win over a graph tool of the same name", () => {
    const served = createTestTools();
    const own = createTestTools();
    const tools = toolNodeTools([served.makePdf], [own.makePdf, own.noop]);
    expect(tools.map((tool) => tool.name)).toEqual(["make_pdf", "noop"]);
    expect(tools[0]).toBe(served.makePdf);
  });
});
