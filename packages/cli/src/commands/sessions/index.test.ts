import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSessionGraph, userTurn } from "../../../../checkpoint/src/__fixtures__/session-graph.js";
import { closeCheckpointer, createCheckpointer } from "@skillgraph/checkpoint";
import type { CliIO } from "../../io/cli-io.js";
import { UsageError } from "../../io/usage-error.js";
import { run } from "./index.js";

function captureIO(cwd: string) {
  const chunks = { stdout: "", stderr: "" };
  const sink = (key: "stdout" | "stderr") =>
    new Writable({ write: (chunk, _enc, done) => ((chunks[key] += String(chunk)), done()) });
  const io: CliIO = {
    stdout: sink("stdout"),
    stderr: sink("stderr"),
    stdin: new PassThrough(),
    env: { HOME: cwd },
    cwd,
    color: false,
    isTTY: false,
  };
  return { io, chunks };
}

let dir: string;
const url = () => `sqlite:${join(dir, "sessions.db")}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "sg-cli-sessions-"));
  mkdirSync(join(dir, "skills/pdf"), { recursive: true });
  writeFileSync(
    join(dir, "skills/pdf/SKILL.md"),
    "---\nname: pdf\ndescription: Read and fill PDF forms.\n---\nUse pdftotext.\n",
  );
  const saver = await createCheckpointer(url());
  for (const thread of ["alpha", "beta"]) {
    const graph = buildSessionGraph({
      checkpointer: saver,
      messages: "delta",
      snapshotFrequency: 3,
      script: [{ calls: [{ name: "load_skill", args: { name: "pdf" } }] }],
      lookup: () => ({ hash: "recorded-hash" }),
    });
    for (let turn = 0; turn < 6; turn += 1)
      await graph.invoke(userTurn(`turn ${turn}`, `${thread}-u${turn}`), { configurable: { thread_id: thread } });
  }
  await closeCheckpointer(saver);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("skillgraph sessions", () => {
  it("lists every session with its checkpoint count as JSON", async () => {
    const { io, chunks } = captureIO(dir);
    expect(await run(["list", "--checkpoint", url(), "--json"], io)).toBe(0);
    const payload = JSON.parse(chunks.stdout) as { sessions: Array<{ threadId: string; checkpoints: number }> };
    expect(payload.sessions.map((s) => s.threadId).sort()).toEqual(["alpha", "beta"]);
    expect(payload.sessions.every((s) => s.checkpoints > 6)).toBe(true);
  });

  it("reads the sessions where chat writes them: $SKILLGRAPH_CHECKPOINT when --checkpoint is not given", async () => {
    const { io, chunks } = captureIO(mkdtempSync(join(tmpdir(), "sg-cli-sessions-cwd-")));
    io.env.SKILLGRAPH_CHECKPOINT = url();
    expect(await run(["list", "--json"], io)).toBe(0);
    const payload = JSON.parse(chunks.stdout) as { sessions: Array<{ threadId: string }> };
    expect(payload.sessions.map((s) => s.threadId).sort()).toEqual(["alpha", "beta"]);
    const flag = captureIO(dir);
    flag.io.env.SKILLGRAPH_CHECKPOINT = "sqlite:/nonexistent/never.db";
    expect(await run(["list", "--checkpoint", url(), "--json"], flag.io)).toBe(0);
    expect(JSON.parse(flag.chunks.stdout).sessions).toHaveLength(2);
  });

  it("shows a session's messages and loaded skills, flagging a skill changed on disk", async () => {
    const { io, chunks } = captureIO(dir);
    expect(await run(["show", "alpha", "--checkpoint", url(), "--skills", "skills"], io)).toBe(0);
    expect(chunks.stdout).toContain("pdf (session) [changed on disk]");
    expect(chunks.stdout).toContain("Messages (14):");
    const json = captureIO(dir);
    await run(["show", "alpha", "--checkpoint", url(), "--skills", "skills", "--json"], json.io);
    expect(JSON.parse(json.chunks.stdout).drift).toMatchObject([
      { name: "pdf", kind: "changed", recordedHash: "recorded-hash" },
    ]);
  });

  it("repair refuses a session another graph wrote (it would drop that graph's state) and writes nothing", async () => {
    const { io, chunks } = captureIO(dir);
    expect(await run(["repair", "alpha", "--checkpoint", url()], io)).toBe(1);
    expect(chunks.stderr).toContain("session 'alpha' was not written by skillgraph chat (channels ");
    expect(chunks.stderr).toMatch(/channels [^)]*\bskills\b/);
    const shown = captureIO(dir);
    await run(["show", "alpha", "--checkpoint", url(), "--json", "--skills", "skills"], shown.io);
    expect(JSON.parse(shown.chunks.stdout)).toMatchObject({ problems: [] });
    await expect(run(["repair", "--checkpoint", url()], io)).rejects.toThrow("repair needs a session NAME");
    await expect(run(["show", "alpha", "--dry-run", "--checkpoint", url()], io)).rejects.toThrow(
      "--dry-run is for repair",
    );
  });

  it("prunes one session and reports what it removed, leaving it readable", async () => {
    const { io, chunks } = captureIO(dir);
    expect(await run(["prune", "beta", "--keep-last", "2", "--checkpoint", url(), "--json"], io)).toBe(0);
    const report = JSON.parse(chunks.stdout) as {
      removed: number;
      before: { checkpoints: number };
      after: { checkpoints: number };
    };
    expect(report.removed).toBeGreaterThan(0);
    expect(report.after.checkpoints).toBe(report.before.checkpoints - report.removed);
    const shown = captureIO(dir);
    await run(["show", "beta", "--checkpoint", url(), "--json", "--skills", "skills"], shown.io);
    expect(JSON.parse(shown.chunks.stdout).messages).toHaveLength(14);
  });

  it("deletes a session, and says so when it does not exist", async () => {
    const { io, chunks } = captureIO(dir);
    expect(await run(["delete", "alpha", "--checkpoint", url()], io)).toBe(0);
    expect(chunks.stdout).toContain("Deleted session 'alpha'");
    const again = captureIO(dir);
    expect(await run(["delete", "alpha", "--checkpoint", url()], again.io)).toBe(1);
    expect(again.chunks.stderr).toContain("session 'alpha' not found");
  });

  it("reports no sessions without creating the default database", async () => {
    const empty = mkdtempSync(join(tmpdir(), "sg-cli-empty-"));
    const { io, chunks } = captureIO(empty);
    expect(await run(["list"], io)).toBe(0);
    expect(chunks.stdout).toContain("No sessions");
    expect(chunks.stdout).toContain(".skillgraph/sessions.db does not exist");
    rmSync(empty, { recursive: true, force: true });
  });

  it("rejects prune without a policy and unknown actions as usage errors", async () => {
    const { io } = captureIO(dir);
    await expect(run(["prune", "--checkpoint", url()], io)).rejects.toThrow(UsageError);
    await expect(run(["rename", "x"], io)).rejects.toThrow("unknown action 'rename'");
  });
});
