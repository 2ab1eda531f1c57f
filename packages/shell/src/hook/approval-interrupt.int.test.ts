import { existsSync } from "node:fs";
import path from "node:path";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { Command } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { fixtureCatalog } from "../__fixtures__/fixture-catalog.js";
import { toolLoopGraph } from "../__fixtures__/tool-loop-graph.js";
import { createShellHook } from "./create-shell-hook.js";

function buildGraph() {
  const hook = createShellHook({ skills: fixtureCatalog([]), executor: "local", requireApproval: ["touch"] });
  const model = fakeModel()
    .respondWithTools([{ name: "shell", args: { command: "touch out/approved.txt" }, id: "call-touch" }])
    .respond(new AIMessage("done"));
  const graph = toolLoopGraph(hook.tools, model);
  return { hook, graph };
}

function toolResult(messages: unknown[]) {
  const message = messages.find((candidate) => ToolMessage.isInstance(candidate)) as ToolMessage;
  return JSON.parse(String(message.content));
}

describe("approval through LangGraph interrupt()", () => {
  it("interrupts with the command, then runs it when resumed with { approved: true }", async () => {
    const { hook, graph } = buildGraph();
    const config = { configurable: { thread_id: "approve" } };
    await graph.invoke({ messages: [new HumanMessage("make the file")] }, config);
    const snapshot = await graph.getState(config);
    const interrupts = snapshot.tasks.flatMap((task) => task.interrupts);
    expect(interrupts).toHaveLength(1);
    expect(interrupts[0]?.value).toMatchObject({
      type: "skillgraph/shell-approval",
      tool: "shell",
      command: "touch out/approved.txt",
      argv: ["touch", "out/approved.txt"],
      cwd: ".",
      executor: "local",
    });
    const target = path.join(hook.workspacePath("approve"), "out", "approved.txt");
    expect(existsSync(target)).toBe(false);
    const final = await graph.invoke(new Command({ resume: { approved: true } }), config);
    expect(toolResult(final.messages)).toMatchObject({ status: "ok", exit_code: 0 });
    expect(existsSync(target)).toBe(true);
    expect(final.messages.at(-1)?.content).toBe("done");
  });

  it("returns a refusal and runs nothing when resumed with anything else", async () => {
    const { hook, graph } = buildGraph();
    const config = { configurable: { thread_id: "deny" } };
    await graph.invoke({ messages: [new HumanMessage("make the file")] }, config);
    const final = await graph.invoke(new Command({ resume: { approved: false, reason: "not today" } }), config);
    expect(toolResult(final.messages)).toMatchObject({
      status: "refused",
      reason: "approval-denied",
      message: expect.stringContaining("not today"),
    });
    expect(existsSync(path.join(hook.workspacePath("deny"), "out", "approved.txt"))).toBe(false);
  });
});
