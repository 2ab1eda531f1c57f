import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillgraphError } from "@skillgraph/core";
import { BubblewrapUnavailableError } from "../errors/bubblewrap-unavailable-error.js";
import { createBubblewrapExecutor } from "./bubblewrap-executor.js";
import type { ExecutionRequest } from "./executor-types.js";
import { createLocalExecutor } from "./local-executor.js";
import { findMarkedProcesses } from "./process-tree.js";

function request(argv: string[], overrides: Partial<ExecutionRequest> = {}): ExecutionRequest {
  const workspaceDir = mkdtempSync(path.join(os.tmpdir(), "shell-bwrap-"));
  return {
    argv,
    cwd: workspaceDir,
    workspaceDir,
    env: {},
    timeoutMs: 60_000,
    killGraceMs: 500,
    maxOutputBytes: 16_384,
    killAfterOutputBytes: 1 << 26,
    runId: randomUUID(),
    ...overrides,
  };
}

describe("bubblewrap executor", () => {
  const executor = createBubblewrapExecutor();
  let server: net.Server;
  let port = 0;

  beforeAll(async () => {
    server = net.createServer((socket) => {
      socket.on("error", () => undefined);
      socket.end("hello\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const connect = () => [
    process.execPath,
    "-e",
    `require("net").connect(${port}, "127.0.0.1").on("connect", () => { console.log("connected"); process.exit(0) }).on("error", (e) => { console.log("error", e.code); process.exit(3) })`,
  ];

  it("cannot reach a TCP server on the host's 127.0.0.1 (network off)", async () => {
    const reachable = await createLocalExecutor().run(request(connect()));
    expect(reachable.stdout).toContain("connected");
    const sandboxed = await executor.run(request(connect()));
    expect(sandboxed.exitCode).toBe(3);
    expect(sandboxed.stdout).toContain("error");
  });

  it("reaches the host network only when network: true", async () => {
    const result = await createBubblewrapExecutor({ network: true }).run(request(connect()));
    expect(result.stdout).toContain("connected");
  });

  it("lets the command write in the workspace only: skill folder, /usr, /etc and / are read-only", async () => {
    const skillDir = mkdtempSync(path.join(os.tmpdir(), "shell-skill-"));
    mkdirSync(path.join(skillDir, "scripts"));
    writeFileSync(path.join(skillDir, "SKILL.md"), "---\nname: x\ndescription: y\n---\n");
    const script = [
      "for target in /skill/evil /skill/scripts/evil /usr/evil /etc/evil /evil; do",
      '  if touch "$target" 2>/dev/null; then echo "WROTE $target"; else echo "refused $target"; fi',
      "done",
      "echo ok > /workspace/out.txt && echo 'wrote workspace'",
      "echo tmp > /tmp/t && echo 'wrote tmp'",
    ].join("\n");
    const job = request(["/bin/sh", "-c", script], { skillDir });
    const result = await executor.run(job);
    expect(result.stdout).not.toContain("WROTE");
    expect(result.stdout.match(/refused/g)).toHaveLength(5);
    expect(result.stdout).toContain("wrote workspace");
    expect(existsSync(path.join(job.workspaceDir, "out.txt"))).toBe(true);
    expect(existsSync(path.join(skillDir, "evil"))).toBe(false);
    expect(existsSync("/usr/evil") || existsSync("/etc/evil") || existsSync("/evil")).toBe(false);
  });

  it("shows the workspace at /workspace and the skill at /skill, with a cleared environment", async () => {
    process.env.SHELL_TEST_SECRET = "leak";
    const skillDir = mkdtempSync(path.join(os.tmpdir(), "shell-skill-"));
    const job = request(["/bin/sh", "-c", "pwd; env"], { skillDir });
    job.argv = ["/bin/sh", "-c", "pwd; env"];
    const result = await executor.run(job);
    delete process.env.SHELL_TEST_SECRET;
    expect(result.stdout).toMatch(/^\/workspace\n/);
    expect(result.stdout).toContain("SKILL_DIR=/skill\n");
    expect(result.stdout).not.toContain("SHELL_TEST_SECRET");
  });

  it("kills the sandboxed tree on timeout, leaving no process of the run", async () => {
    const job = request(["/bin/sh", "-c", "sleep 300 & sh -c 'sleep 301' & wait"], { timeoutMs: 500 });
    const result = await executor.run(job);
    expect(result.timedOut).toBe(true);
    expect(await findMarkedProcesses(job.runId)).toEqual([]);
  });

  it("fails with a clear error when bwrap is missing", () => {
    let error: unknown;
    try {
      createBubblewrapExecutor({ bwrapPath: "/nonexistent/bwrap" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BubblewrapUnavailableError);
    expect(SkillgraphError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("/nonexistent/bwrap");
    expect((error as SkillgraphError).code).toBe("bubblewrap-unavailable");
  });
});

describe("bubblewrap probe", () => {
  it("fails at creation when bwrap exists but cannot build a sandbox", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "shell-fake-bwrap-"));
    const fake = path.join(dir, "bwrap");
    writeFileSync(fake, "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n", {
      mode: 0o755,
    });
    expect(() => createBubblewrapExecutor({ bwrapPath: fake })).toThrow(
      /cannot create a sandbox here \(bwrap: No permissions to create new namespace\)/,
    );
    expect(() => createBubblewrapExecutor({ bwrapPath: fake, probe: false })).not.toThrow();
  });
});
