import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSessionGraph, userTurn } from "../../../../checkpoint/src/__fixtures__/session-graph.js";
import { closeCheckpointer, createCheckpointer } from "@skillgraph/checkpoint";
import type { CliIO } from "../../io/cli-io.js";
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
  dir = mkdtempSync(join(tmpdir(), "sg-cli-first-prompt-"));
  const saver = await createCheckpointer(url());
  for (const thread of ["2026-11-25-1012", "2026-11-25-1130"]) {
    const graph = buildSessionGraph({
      checkpointer: saver,
      messages: "delta",
      snapshotFrequency: 3,
      script: [],
      lookup: () => undefined,
    });
    for (let turn = 0; turn < 5; turn += 1)
      await graph.invoke(userTurn(`${thread} prompt ${turn}`, `${thread}-u${turn}`), {
        configurable: { thread_id: thread },
      });
  }
  await closeCheckpointer(saver);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("skillgraph sessions list shows what each session was about", () => {
  it("the first prompt, in the table and in --json (long sessions: the first, not the latest)", async () => {
    const table = captureIO(dir);
    expect(await run(["list", "--checkpoint", url()], table.io)).toBe(0);
    expect(table.chunks.stdout).toContain("FIRST PROMPT");
    expect(table.chunks.stdout).toMatch(/2026-11-25-1012 .*2026-11-25-1012 prompt 0/);
    const json = captureIO(dir);
    expect(await run(["list", "--checkpoint", url(), "--json"], json.io)).toBe(0);
    const payload = JSON.parse(json.chunks.stdout) as { sessions: Array<{ threadId: string; firstPrompt: string }> };
    expect(Object.fromEntries(payload.sessions.map((s) => [s.threadId, s.firstPrompt]))).toEqual({
      "2026-11-25-1012": "2026-11-25-1012 prompt 0",
      "2026-11-25-1130": "2026-11-25-1130 prompt 0",
    });
  });
});
