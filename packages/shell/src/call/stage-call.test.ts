// The stage stage on the part of the runtime it reads (artifacts, host folders, attachment staging; the catalog, the
// executor's view, the thread workspaces; the thread's pinned artifact versions and staged attachments), over a
// planned call of a real runtime.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InMemoryStore } from "@langchain/langgraph";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { artifactStoreFromBaseStore } from "../artifacts/artifact-store.js";
import { loadBashParser } from "../command/bash-parser.js";
import type { ShellHookOptions } from "../options/shell-hook-options.js";
import type { CommandCallInput } from "./command-call-input.js";
import { callRuntime, shellInput, type CallRuntime } from "./__fixtures__/call-runtime.js";
import { planCall } from "./plan-call.js";
import { stageCall } from "./stage-call.js";
import { validateCall } from "./validate-call.js";

let fixture: CallRuntime | undefined;
beforeAll(() => loadBashParser());
afterEach(async () => {
  await fixture?.dispose();
  fixture = undefined;
});

/** Just what stageCall declares it reads, taken from a runtime built from `options`. */
async function stageView(options: Partial<ShellHookOptions> = {}) {
  fixture = await callRuntime(options);
  const { config, services, threads } = fixture.runtime;
  return {
    config: { artifacts: config.artifacts, hostInputs: config.hostInputs, stageAttachments: config.stageAttachments },
    services: { catalog: services.catalog, executor: services.executor, workspaces: services.workspaces },
    threads: { pinnedArtifacts: threads.pinnedArtifacts, stagedAttachments: threads.stagedAttachments },
  };
}

/** The call as the validate and plan stages of the real runtime hand it on. */
async function planned(input: CommandCallInput) {
  const validated = validateCall(fixture!.runtime, input, { configurable: { thread_id: "t1" } }, "t1");
  if ("ok" in validated) throw new Error(validated.message);
  const call = await planCall(fixture!.runtime, validated);
  if ("ok" in call) throw new Error(call.message);
  return call;
}

describe("stageCall", () => {
  it("writes the call's files and editor text into the workspace and makes the run's own folder", async () => {
    const view = await stageView();
    const call = await planned(
      shellInput("cat in/data.csv", { files: [{ path: "in/data.csv", content: "a,b\n1,2\n" }], editor_text: "hello" }),
    );
    const staged = await stageCall(view, call);
    if ("ok" in staged) throw new Error(staged.message);
    expect(readFileSync(path.join(call.workspaceDir, "in/data.csv"), "utf8")).toBe("a,b\n1,2\n");
    const editorFile = /cp (\S+)$/.exec(staged.editorEnv!.EDITOR!)![1]!;
    expect(readFileSync(editorFile, "utf8")).toBe("hello");
    expect(staged.editorEnv).toMatchObject({ VISUAL: staged.editorEnv!.EDITOR, GIT_EDITOR: staged.editorEnv!.EDITOR });
    expect(statSync(staged.runDir).isDirectory()).toBe(true);
    expect(path.dirname(staged.runDir)).toBe(path.join(call.workspaceDir, "runs"));
    expect(staged.stagedInputs).toEqual([]);
    expect(staged.attachmentsSkipped).toEqual([]);
  });

  it("copies a host folder's file the app lists, reports it, and refuses a folder it does not list", async () => {
    const data = mkdtempSync(path.join(os.tmpdir(), "skillgraph-host-data-"));
    writeFileSync(path.join(data, "sales.csv"), "region,units\nNorth,3\n");
    const view = await stageView({ hostInputs: { data } });
    const staged = await stageCall(
      view,
      await planned(shellInput("true", { inputs: [{ from: "host://data/sales.csv" }] })),
    );
    if ("ok" in staged) throw new Error(staged.message);
    expect(staged.stagedInputs).toEqual([{ from: "host://data/sales.csv", path: "in/sales.csv", size: 21 }]);
    expect(readFileSync(path.join(staged.workspaceDir, "in/sales.csv"), "utf8")).toBe("region,units\nNorth,3\n");
    expect(
      await stageCall(view, await planned(shellInput("true", { inputs: [{ from: "host://etc/passwd" }] }))),
    ).toMatchObject({
      ok: false,
      reason: "staging-refused",
    });
  });

  it("remembers a pinned artifact version per thread: a newer version saved later is not staged", async () => {
    const store = new InMemoryStore();
    const view = await stageView({ artifacts: { store } });
    const artifacts = artifactStoreFromBaseStore(store);
    const save = (text: string) =>
      artifacts.save("t1", { name: "r.txt", bytes: Buffer.from(text), mimeType: "text/plain", savedFrom: "out/r.txt" });
    const pinned = shellInput("cat in/r.txt", { inputs: [{ from: "artifact://r.txt", pin: true }] });
    await save("first");
    const first = await stageCall(view, await planned(pinned));
    if ("ok" in first) throw new Error(first.message);
    expect(readFileSync(path.join(first.workspaceDir, "in/r.txt"), "utf8")).toBe("first");
    expect([...view.threads.pinnedArtifacts.get("t1")!.entries()]).toEqual([["r.txt", 1]]);
    await save("second");
    const again = await stageCall(view, await planned(pinned));
    if ("ok" in again) throw new Error(again.message);
    expect(readFileSync(path.join(again.workspaceDir, "in/r.txt"), "utf8")).toBe("first");
    const newest = await stageCall(
      view,
      await planned(shellInput("cat in/r.txt", { inputs: [{ from: "artifact://r.txt" }] })),
    );
    if ("ok" in newest) throw new Error(newest.message);
    expect(readFileSync(path.join(newest.workspaceDir, "in/r.txt"), "utf8")).toBe("second");
  });

  it("refuses a file that would land outside the workspace, before the command runs", async () => {
    const view = await stageView();
    expect(
      await stageCall(view, await planned(shellInput("true", { files: [{ path: "../escape.txt", content: "x" }] }))),
    ).toMatchObject({ ok: false, reason: "staging-refused" });
  });
});
