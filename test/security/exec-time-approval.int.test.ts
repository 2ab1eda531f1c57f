// Approval rules at exec time, through the shell hook and LangGraph's interrupt(): the command the user approved runs,
// a program that needs the same approval but was hidden from the question (started by another program) is refused
// where it starts, and the model is told which start was refused and why.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { Command } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureCatalog } from "../../packages/shell/src/__fixtures__/fixture-catalog.js";
import { toolLoopGraph } from "../../packages/shell/src/__fixtures__/tool-loop-graph.js";
import { createShellHook } from "../../packages/shell/src/hook/create-shell-hook.js";
import { bubblewrapWorks } from "./attack-harness.js";

const canSandbox = bubblewrapWorks();
let toolsDir = "";

function graphFor(command: string) {
  const hook = createShellHook({
    skills: fixtureCatalog([]),
    executor: "bubblewrap",
    bubblewrap: { execEnforcement: true, readOnlyPaths: [toolsDir] },
    fixedPath: `${toolsDir}:/usr/local/bin:/usr/bin:/bin`,
    requireApproval: ["tool push"],
  });
  const model = fakeModel()
    .respondWithTools([{ name: "shell", args: { command }, id: "call-1" }])
    .respond(new AIMessage("done"));
  return { hook, graph: toolLoopGraph(hook.tools, model) };
}

function toolResult(messages: unknown[]) {
  const message = messages.find((candidate) => ToolMessage.isInstance(candidate)) as ToolMessage;
  return JSON.parse(String(message.content)) as Record<string, unknown>;
}

describe.skipIf(!canSandbox)("approval rules where programs start (shell hook, bubblewrap)", () => {
  beforeAll(() => {
    toolsDir = mkdtempSync("/var/tmp/exec-approval-tools-");
    const source = path.join(toolsDir, "tool.c");
    writeFileSync(
      source,
      [
        "#include <fcntl.h>",
        "#include <stdlib.h>",
        "#include <string.h>",
        "int main(int c, char **v) {",
        '  if (c > 1 && strcmp(v[1], "push") == 0) return creat(c > 2 ? v[2] : "pushed", 0644) < 0;',
        '  if (c > 2 && strcmp(v[1], "spawn") == 0) return system(v[2]) != 0;',
        "  return 0;",
        "}",
        "",
      ].join("\n"),
    );
    execFileSync("gcc", ["-O2", "-o", path.join(toolsDir, "tool"), source]);
  });
  afterAll(() => rmSync(toolsDir, { recursive: true, force: true }));

  it("runs the approved command at its start", async () => {
    const { hook, graph } = graphFor("tool push out/approved");
    const config = { configurable: { thread_id: "approved" } };
    await graph.invoke({ messages: [new HumanMessage("push")] }, config);
    const interrupts = (await graph.getState(config)).tasks.flatMap((task) => task.interrupts);
    expect(interrupts[0]?.value).toMatchObject({ command: "tool push out/approved", executor: "bubblewrap" });
    const final = await graph.invoke(new Command({ resume: { approved: true } }), config);
    expect(toolResult(final.messages)).toMatchObject({ status: "ok", exit_code: 0 });
    expect(existsSync(path.join(hook.workspacePath("approved"), "out", "approved"))).toBe(true);
    await hook.dispose();
  });

  it("refuses a start that needs approval but was hidden from the question, and says so to the model", async () => {
    const { hook, graph } = graphFor("tool spawn 'tool push out/hidden'");
    const config = { configurable: { thread_id: "hidden" } };
    const final = await graph.invoke({ messages: [new HumanMessage("push")] }, config);
    // the planner sees `tool spawn ...`, which no rule names: no question; the push inside is judged where it starts
    expect((await graph.getState(config)).tasks.flatMap((task) => task.interrupts)).toHaveLength(0);
    expect(toolResult(final.messages)).toMatchObject({
      status: "failed",
      refused_programs: [{ argv: ["tool", "push", "out/hidden"], needs_approval: true }],
    });
    expect(existsSync(path.join(hook.workspacePath("hidden"), "out", "hidden"))).toBe(false);
    await hook.dispose();
  });
});
