// `ApprovalCandidate.sandboxed`: true only for a line that stays in a sandbox without network. With the rule
// `(candidate) => !candidate.sandboxed` (the `sandboxed` approval policy) such a line runs without a question, and
// every way out of the sandbox asks: the local executor, a networked sandbox, a host file copied in, an opaque piece.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import { fixtureCatalog } from "../__fixtures__/fixture-catalog.js";
import { toolLoopGraph } from "../__fixtures__/tool-loop-graph.js";
import { createBubblewrapExecutor } from "../executor/bubblewrap-executor.js";
import type { ApprovalCandidate } from "../policy/approval-types.js";
import { createShellHook } from "./create-shell-hook.js";
import type { ShellHookOptions } from "../options/shell-hook-options.js";

const bubblewrap = (() => {
  try {
    createBubblewrapExecutor();
    return true;
  } catch {
    return false;
  }
})();

/** Runs one shell call under the rule `!sandboxed`; returns what the rule saw and whether the call was held for approval. */
async function runOnce(options: Partial<ShellHookOptions>, args: Record<string, unknown>) {
  const seen: ApprovalCandidate[] = [];
  const hook = createShellHook({
    skills: fixtureCatalog([]),
    requireApproval: [(candidate) => (seen.push(candidate), !candidate.sandboxed)],
    ...options,
  });
  const model = fakeModel()
    .respondWithTools([{ name: "shell", args, id: "call-1" }])
    .respond(new AIMessage("done"));
  const graph = toolLoopGraph(hook.tools, model);
  const config = { configurable: { thread_id: "t" } };
  const result = await graph.invoke({ messages: [new HumanMessage("go")] }, config);
  const held = (await graph.getState(config)).tasks.flatMap((task) => task.interrupts).length > 0;
  const message = result.messages.find((candidate: unknown) => ToolMessage.isInstance(candidate)) as
    | ToolMessage
    | undefined;
  await hook.dispose();
  return { seen, held, result: message ? JSON.parse(String(message.content)) : undefined };
}

const line = { command: "mkdir -p notes && echo kept > notes/a.txt && cat notes/a.txt | wc -c" };

describe.skipIf(!bubblewrap)("the sandboxed approval rule", () => {
  it("runs a workspace line in bubblewrap without network without asking", async () => {
    const { seen, held, result } = await runOnce({ executor: "bubblewrap" }, line);
    expect(seen.map((candidate) => candidate.sandboxed)).toEqual([true]);
    expect(held).toBe(false);
    expect(result).toMatchObject({ status: "ok", stdout: "5\n", executor: "bubblewrap" });
  });

  it("asks when the sandbox has the network", async () => {
    const { seen, held } = await runOnce({ executor: createBubblewrapExecutor({ network: true }) }, line);
    expect(seen.map((candidate) => candidate.sandboxed)).toEqual([false]);
    expect(held).toBe(true);
  });

  it("asks under the local executor", async () => {
    const { seen, held } = await runOnce({ executor: "local" }, line);
    expect(seen.map((candidate) => candidate.sandboxed)).toEqual([false]);
    expect(held).toBe(true);
  });

  it("asks when a host file is copied in, and for an opaque piece", async () => {
    const data = mkdtempSync(path.join(os.tmpdir(), "sandboxed-host-"));
    mkdirSync(path.join(data, "d"));
    writeFileSync(path.join(data, "d", "x.txt"), "x\n");
    const hostInput = await runOnce(
      { executor: "bubblewrap", hostInputs: { data } },
      { command: "cat in/x.txt", inputs: [{ from: "host://data/d/x.txt" }] },
    );
    expect(hostInput.seen.map((candidate) => candidate.sandboxed)).toEqual([false]);
    expect(hostInput.held).toBe(true);
    const opaque = await runOnce({ executor: "bubblewrap" }, { command: 'p=ls; "$p" -a' });
    // an opaque piece asks before any rule is consulted: no rule can wave it through
    expect(opaque.seen).toEqual([]);
    expect(opaque.held).toBe(true);
  });
});
