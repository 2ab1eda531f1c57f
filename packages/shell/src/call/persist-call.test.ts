// The persist stage on the part of the runtime it reads (the artifacts setting), over a collected call of a real
// runtime, saving into a real artifact store over LangGraph's InMemoryStore.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { InMemoryStore } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { fileSystemNow } from "../workspace/file-system-clock.js";
import type { ShellHookOptions } from "../options/shell-hook-options.js";
import type { CommandCallInput } from "./command-call-input.js";
import { callRuntime, finished, shellInput, stagedCall, type CallRuntime } from "./__fixtures__/call-runtime.js";
import { collectCall } from "./collect-call.js";
import { persistCall } from "./persist-call.js";

let fixture: CallRuntime | undefined;
afterEach(async () => {
  await fixture?.dispose();
  fixture = undefined;
});

/** Just what persistCall declares it reads, taken from a runtime built from `options`. */
async function persistView(options: Partial<ShellHookOptions> = {}) {
  fixture = await callRuntime(options);
  return { config: { artifacts: fixture.runtime.config.artifacts }, services: {}, threads: {} };
}

/** A staged call whose command wrote out/report.txt, and what the collect stage found. */
async function collected(input: CommandCallInput) {
  const call = await stagedCall(fixture!.runtime, input);
  const startedAt = fileSystemNow();
  mkdirSync(path.join(call.workspaceDir, "out"), { recursive: true });
  writeFileSync(path.join(call.workspaceDir, "out", "report.txt"), "quarterly numbers");
  return { call, found: await collectCall(fixture!.runtime, call, { result: finished(0), startedAt }) };
}

describe("persistCall", () => {
  it("saves the collected files when the call asks and there is a store; the store then holds them", async () => {
    const store = new InMemoryStore();
    const view = await persistView({ artifacts: { store } });
    const { call, found } = await collected(shellInput("true", { outputs: { save_as_artifacts: true } }));
    const saved = await persistCall(view, call, found);
    expect(saved).toMatchObject([{ name: "report.txt", version: 1 }]);
    const artifact = await call.artifacts!.load("t1", "report.txt");
    expect(artifact?.bytes.toString()).toBe("quarterly numbers");
    // the same bytes again: not saved a second time
    expect(await persistCall(view, call, found)).toMatchObject([{ name: "report.txt", unchanged: true }]);
  });

  it("saves nothing unless the call asks or the hook always saves", async () => {
    const view = await persistView({ artifacts: { store: new InMemoryStore() } });
    const quiet = await collected(shellInput("true"));
    expect(await persistCall(view, quiet.call, quiet.found)).toBeUndefined();
    await fixture!.dispose();
    const always = await persistView({ artifacts: { store: new InMemoryStore(), alwaysSave: true } });
    const saved = await collected(shellInput("true"));
    expect(await persistCall(always, saved.call, saved.found)).toMatchObject([{ name: "report.txt" }]);
  });

  it("saves nothing without a store, even when asked (validate gave the warning)", async () => {
    const view = await persistView();
    const { call, found } = await collected(shellInput("true", { outputs: { save_as_artifacts: true } }));
    expect(call.artifactsWarning).toContain("no artifact store");
    expect(await persistCall(view, call, found)).toBeUndefined();
  });
});
