// The approve stage on the part of the runtime it reads (the approval rules, the executor), over a planned call of a
// real runtime; an approval is asked with LangGraph's interrupt() inside a real graph with a checkpointer.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Annotation, Command, MemorySaver, StateGraph, START, END } from "@langchain/langgraph";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadBashParser } from "../command/bash-parser.js";
import type { ShellHookOptions } from "../options/shell-hook-options.js";
import type { Refusal } from "../policy/refusal.js";
import type { PlannedCall } from "./call-types.js";
import type { CommandCallInput } from "./command-call-input.js";
import { callRuntime, scriptInput, shellInput, type CallRuntime } from "./__fixtures__/call-runtime.js";
import { approvalCandidate, approvePlannedCall, type ApprovedCall } from "./approve-call.js";
import { planCall } from "./plan-call.js";
import { validateCall } from "./validate-call.js";

let fixture: CallRuntime | undefined;
beforeAll(() => loadBashParser());
afterEach(async () => {
  await fixture?.dispose();
  fixture = undefined;
});

/** Just what approvePlannedCall declares it reads, taken from a runtime built from `options`. */
async function approveView(options: Partial<ShellHookOptions> = {}) {
  fixture = await callRuntime({ loadedSkills: () => ["report"], ...options });
  const { config, services } = fixture.runtime;
  return { config: { approvalRules: config.approvalRules }, services: { executor: services.executor }, threads: {} };
}

/** The call as the validate and plan stages of the real runtime hand it on. */
async function planned(input: CommandCallInput): Promise<PlannedCall> {
  const config = { configurable: { thread_id: "t1" } };
  const validated = validateCall(fixture!.runtime, input, config, "t1");
  if ("ok" in validated) throw new Error(validated.message);
  const call = await planCall(fixture!.runtime, validated);
  if ("ok" in call) throw new Error(call.message);
  return call;
}

/** A one-node graph that runs the approve stage, so interrupt() pauses it as it would the shell tool. */
function approvalGraph(view: Awaited<ReturnType<typeof approveView>>, call: PlannedCall) {
  const State = Annotation.Root({ outcome: Annotation<ApprovedCall | Refusal | undefined>() });
  return new StateGraph(State)
    .addNode("approve", async () => ({ outcome: await approvePlannedCall(view, call) }))
    .addEdge(START, "approve")
    .addEdge("approve", END)
    .compile({ checkpointer: new MemorySaver() });
}

describe("approvePlannedCall", () => {
  it("lets a line no rule matches through without asking (outside any graph)", async () => {
    const view = await approveView({ requireApproval: ["git push"] });
    expect(await approvePlannedCall(view, await planned(shellInput("printf hi")))).toEqual({
      approved: [],
      sandboxed: false,
    });
  });

  it("asks once a rule matches, and gives the approved commands on 'approved', a refusal with the reason otherwise", async () => {
    const view = await approveView({ requireApproval: ["printf"] });
    const call = await planned(shellInput("printf hi > out/a.txt"));
    const graph = approvalGraph(view, call);
    const thread = { configurable: { thread_id: "approve-yes" } };
    const paused = await graph.invoke({}, thread);
    const [asked] = (paused as unknown as { __interrupt__: Array<{ value: Record<string, unknown> }> }).__interrupt__;
    expect(asked!.value).toMatchObject({
      type: "skillgraph/shell-approval",
      tool: "shell",
      command: "printf hi > out/a.txt",
      argv: ["printf", "hi"],
      cwd: ".",
      executor: "local",
    });
    const yes = await graph.invoke(new Command({ resume: { approved: true } }), thread);
    // the line's layer and its command, each as the argv a program started at run time must have to count as approved
    const approved = yes.outcome as ApprovedCall;
    expect(approved.sandboxed).toBe(false);
    expect(approved.approved.length).toBeGreaterThan(0);
    expect(approved.approved.every((argv) => argv.join(" ") === "printf hi")).toBe(true);

    const refused = approvalGraph(view, call);
    const other = { configurable: { thread_id: "approve-no" } };
    await refused.invoke({}, other);
    const no = await refused.invoke(new Command({ resume: { approved: false, reason: "not today" } }), other);
    expect(no.outcome).toMatchObject({
      ok: false,
      reason: "approval-denied",
      message: "running 'printf hi > out/a.txt' was not approved: not today",
    });
  });

  it("keys an 'always' answer on the content of the script it runs: an edited script is asked about again", async () => {
    await approveView();
    const call = await planned(scriptInput("report", "scripts/build.sh"));
    const executor = fixture!.runtime.services.executor;
    const first = await approvalCandidate(call, executor);
    expect((await approvalCandidate(call, executor)).key).toBe(first.key);
    expect(first).toMatchObject({ tool: "run_skill_script", skill: "report", sandboxed: false });
    writeFileSync(path.join(fixture!.skillsDir, "report/scripts/build.sh"), "#!/bin/sh\nrm -rf out\n");
    expect((await approvalCandidate(call, executor)).key).not.toBe(first.key);
  });
});
