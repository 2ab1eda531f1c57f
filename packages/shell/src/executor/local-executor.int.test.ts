import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ExecutionRequest } from "./executor-types.js";
import { createLocalExecutor } from "./local-executor.js";
import { findMarkedProcesses } from "./process-tree.js";

function request(script: string, overrides: Partial<ExecutionRequest> = {}): ExecutionRequest {
  const workspaceDir = mkdtempSync(path.join(os.tmpdir(), "shell-local-"));
  return {
    argv: ["/bin/sh", "-c", script],
    cwd: workspaceDir,
    workspaceDir,
    env: {},
    timeoutMs: 60_000,
    killGraceMs: 500,
    maxOutputBytes: 16_384,
    killAfterOutputBytes: 64 * 1024 * 1024,
    runId: randomUUID(),
    ...overrides,
  };
}

/** Checks every 25 ms until `check` holds or 30 s pass (then fails saying so). */
async function waitFor(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("condition not reached in 30 s");
}

describe("local executor", () => {
  const executor = createLocalExecutor();

  it("kills children, grandchildren and a setsid escapee on timeout, leaving no process of the run", async () => {
    // a child, a grandchild (sh -> sh -> sleep), and one that leaves the process group with setsid; the timeout leaves
    // a loaded machine time to start them all (seen below) before it ends the run
    const job = request("sleep 300 & sh -c 'sleep 301 & wait' & setsid sleep 302 & wait", { timeoutMs: 3_000 });
    const running = executor.start(job);
    running.closeStdin();
    await waitFor(async () => (await findMarkedProcesses(job.runId)).length >= 5);
    const result = await running.result;
    expect(result.timedOut).toBe(true);
    expect(await findMarkedProcesses(job.runId)).toEqual([]);
  });

  it("escalates to SIGKILL when the program ignores SIGTERM", async () => {
    // the timeout leaves a loaded machine time to reach the traps (SIGTERM before them ends the shell without SIGKILL)
    const job = request("trap '' TERM; sleep 300 & trap '' TERM; while :; do sleep 1; done", {
      timeoutMs: 3_000,
      killGraceMs: 300,
    });
    const result = await executor.run(job);
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe("SIGKILL");
    expect(await findMarkedProcesses(job.runId)).toEqual([]);
  });

  it("kills background processes a finished command left behind", async () => {
    const job = request("sleep 300 > /dev/null 2>&1 & echo started");
    const result = await executor.run(job);
    expect(result).toMatchObject({ exitCode: 0, stdout: "started\n", timedOut: false });
    expect(await findMarkedProcesses(job.runId)).toEqual([]);
  });

  it("caps 1 GiB of output without holding it in memory", async () => {
    const job = request("head -c 1073741824 /dev/zero | tr '\\0' 'y'", { killAfterOutputBytes: 2 ** 40 });
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const result = await executor.run(job);
    clearInterval(sampler);
    expect(result.stdoutBytes).toBe(1024 ** 3);
    expect(result.stdoutTruncated).toBe(true);
    expect(result.stdout.length).toBeLessThan(16_384 + 100);
    expect(result.stdout).toMatch(/^y+\n\[\.\.\. \d+ bytes truncated \.\.\.\]\ny+$/);
    expect(peak - before).toBeLessThan(128 * 1024 * 1024);
  });

  it("kills a runaway writer once the output limit is passed", async () => {
    const job = request("yes", { killAfterOutputBytes: 4 * 1024 * 1024 });
    const result = await executor.run(job);
    expect(result.outputLimitExceeded).toBe(true);
    expect(result.stdoutBytes).toBeGreaterThanOrEqual(4 * 1024 * 1024);
    expect(await findMarkedProcesses(job.runId)).toEqual([]);
  });

  it("gives the command a scrubbed environment with a fixed PATH", async () => {
    process.env.SHELL_TEST_SECRET = "leak";
    const result = await executor.run(request("env", { env: { GREETING: "hi" } }));
    delete process.env.SHELL_TEST_SECRET;
    expect(result.stdout).toContain("PATH=/usr/local/bin:/usr/bin:/bin\n");
    expect(result.stdout).toContain("GREETING=hi\n");
    expect(result.stdout).not.toContain("SHELL_TEST_SECRET");
  });
});
