// The run stage on the part of the runtime it reads (the executor), with the real local executor running a real
// process: the request comes from the stages before it, and a run folder the command left empty is removed.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fileSystemNow } from "../workspace/file-system-clock.js";
import type { CommandCallInput } from "./command-call-input.js";
import { callRuntime, shellInput, stagedCall, type CallRuntime } from "./__fixtures__/call-runtime.js";
import { executionRequest } from "./execution-request.js";
import { runCall } from "./run-call.js";

let fixture: CallRuntime | undefined;
afterEach(async () => {
  await fixture?.dispose();
  fixture = undefined;
});

/** A call staged by the real runtime and the request the execution-request stage builds for it. */
async function requestFor(input: CommandCallInput) {
  const call = await stagedCall(fixture!.runtime, input);
  const request = executionRequest(fixture!.runtime, call, { approved: [], sandboxed: false });
  if ("ok" in request) throw new Error(request.message);
  return { call, request };
}

describe("runCall", () => {
  it("runs the command to its end in the workspace and keeps the run folder only when the command wrote in it", async () => {
    fixture = await callRuntime();
    const { executor, workspaces } = fixture.runtime.services;
    const view = { config: {}, services: { executor, workspaces }, threads: {} };
    const quiet = await requestFor(shellInput("printf hi > out/a.txt; echo done"));
    const before = fileSystemNow();
    const ran = await runCall(view, quiet.call, quiet.request);
    expect(ran.result).toMatchObject({ exitCode: 0, stdout: "done\n", timedOut: false });
    expect(ran.startedAt).toBeGreaterThanOrEqual(before);
    expect(existsSync(path.join(quiet.call.workspaceDir, "out/a.txt"))).toBe(true);
    expect(existsSync(quiet.call.runDir)).toBe(false);

    const logging = await requestFor(shellInput('echo step > "$RUN_DIR/log.txt"'));
    const kept = await runCall(view, logging.call, logging.request);
    expect(kept.result.exitCode).toBe(0);
    expect(readdirSync(logging.call.runDir)).toEqual(["log.txt"]);
  });

  it("reports a failing command's status and a timed-out one as timed out", async () => {
    fixture = await callRuntime();
    const { executor, workspaces } = fixture.runtime.services;
    const view = { config: {}, services: { executor, workspaces }, threads: {} };
    const failing = await requestFor(shellInput("echo oops >&2; exit 3"));
    expect((await runCall(view, failing.call, failing.request)).result).toMatchObject({
      exitCode: 3,
      stderr: "oops\n",
    });
    const slow = await requestFor(shellInput("sleep 30", { timeout_seconds: 0.5 }));
    expect((await runCall(view, slow.call, slow.request)).result).toMatchObject({ timedOut: true });
  });
});
