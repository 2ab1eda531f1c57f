// The collect stage on the part of the runtime it reads (the hook's output-file caps), over a staged call of a real
// runtime whose out/ files are written the way a command would write them.
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fileSystemNow } from "../workspace/file-system-clock.js";
import type { ShellHookOptions } from "../options/shell-hook-options.js";
import type { CommandCallInput } from "./command-call-input.js";
import { callRuntime, finished, shellInput, stagedCall, type CallRuntime } from "./__fixtures__/call-runtime.js";
import { collectCall } from "./collect-call.js";

let fixture: CallRuntime | undefined;
afterEach(async () => {
  await fixture?.dispose();
  fixture = undefined;
});

/** Just what collectCall declares it reads, taken from a runtime built from `options`. */
async function collectView(options: Partial<ShellHookOptions> = {}) {
  fixture = await callRuntime(options);
  return { config: { outputFiles: fixture.runtime.config.outputFiles }, services: {}, threads: {} };
}

/** A staged call whose command "wrote" `files` under out/ after it started. */
async function ranWriting(input: CommandCallInput, files: Record<string, string>) {
  const call = await stagedCall(fixture!.runtime, input);
  const startedAt = fileSystemNow();
  mkdirSync(path.join(call.workspaceDir, "out"), { recursive: true });
  for (const [name, content] of Object.entries(files))
    writeFileSync(path.join(call.workspaceDir, "out", name), content);
  return { call, startedAt };
}

describe("collectCall", () => {
  it("reports the out/ files written since the run started that the globs match, and the primary output", async () => {
    const view = await collectView();
    const { call, startedAt } = await ranWriting(
      shellInput("true", { outputs: { globs: ["*.txt"], primary: "out/b.txt" } }),
      { "a.txt": "alpha", "b.txt": "beta", "c.csv": "x,y" },
    );
    const stale = path.join(call.workspaceDir, "out", "old.txt");
    writeFileSync(stale, "from an earlier run");
    utimesSync(stale, new Date(startedAt - 60_000), new Date(startedAt - 60_000));
    const collected = await collectCall(view, call, { result: finished(0), startedAt });
    expect(collected.collected.files.map((file) => file.path).sort()).toEqual(["out/a.txt", "out/b.txt"]);
    expect(collected.primaryOutput?.path).toBe("out/b.txt");
    expect(collected.emptyFromFailure).toEqual([]);
  });

  it("caps a call's own limits at the hook's", async () => {
    const view = await collectView({ outputFiles: { maxFiles: 2 } });
    const files = { "1.txt": "1", "2.txt": "2", "3.txt": "3" };
    const asksMore = await ranWriting(shellInput("true", { outputs: { max_files: 10 } }), files);
    const many = await collectCall(view, asksMore.call, { result: finished(0), startedAt: asksMore.startedAt });
    expect(many.collected.files).toHaveLength(2);
    expect(many.collected.skippedCount).toBe(1);
    const asksLess = await ranWriting(shellInput("true", { outputs: { max_files: 1 } }), files);
    const one = await collectCall(view, asksLess.call, { result: finished(0), startedAt: asksLess.startedAt });
    expect(one.collected.files).toHaveLength(1);
  });

  it("sets apart the empty files a failed command left, and keeps them when it succeeded", async () => {
    const view = await collectView();
    const failed = await ranWriting(shellInput("true"), { "report.txt": "", "log.txt": "partial" });
    const sorted = await collectCall(view, failed.call, { result: finished(1), startedAt: failed.startedAt });
    expect(sorted.emptyFromFailure).toEqual(["out/report.txt"]);
    expect(sorted.collected.files.map((file) => file.path)).toEqual(["out/log.txt"]);
    const ok = await collectCall(view, failed.call, { result: finished(0), startedAt: failed.startedAt });
    expect(ok.emptyFromFailure).toEqual([]);
    expect(ok.collected.files.map((file) => file.path).sort()).toEqual(["out/log.txt", "out/report.txt"]);
  });
});
