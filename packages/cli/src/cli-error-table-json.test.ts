// The CLI error table, continued: `validate --json` answers for every path (a SKILL.md that is a FIFO or a folder, a
// folder that only holds skills), `validate --all` reports folders it could not open and dangling links, and a
// folder that cannot be read makes `list` exit 1 with one report.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../../../test/support/skill-tree.js";
import { captureIO } from "./__fixtures__/capture-io.js";
import { runCli } from "./run-cli.js";

const root = writeTree({
  "nested/inner/SKILL.md": skillMd("inner", "A skill one level down."),
  "tree/ok/SKILL.md": skillMd("ok", "A good skill."),
  "a.txt": "not a folder\n",
});
mkdirSync(join(root, "fifo"));
execFileSync("mkfifo", [join(root, "fifo", "SKILL.md")]);
mkdirSync(join(root, "folder", "SKILL.md"), { recursive: true });
symlinkSync(join(root, "nowhere"), join(root, "tree", "gone"));
mkdirSync(join(root, "tree", "dangling"));
symlinkSync(join(root, "nowhere", "SKILL.md"), join(root, "tree", "dangling", "SKILL.md"));

interface ValidateJson {
  results: Array<{ path: string; skillFile: string | null; valid: boolean; diagnostics: Array<{ code: string }> }>;
}

async function run(args: string[]) {
  const io = captureIO(root, {});
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}

describe("validate --json gives a result for every path", () => {
  it.each([
    ["a FIFO named SKILL.md", "fifo", "not-a-regular-file", join(root, "fifo", "SKILL.md")],
    ["a folder named SKILL.md", "folder", "not-a-regular-file", join(root, "folder", "SKILL.md")],
    ["a folder that holds skills but no SKILL.md", "nested", "skill-md-missing", null],
  ])("%s: exit 1, JSON with %s", async (_what, folder, code, skillFile) => {
    const result = await run(["validate", "--json", join(root, folder)]);
    expect(result.code).toBe(1);
    const payload = JSON.parse(result.out) as ValidateJson;
    expect(payload.results).toEqual([
      expect.objectContaining({
        path: join(root, folder),
        skillFile,
        valid: false,
        diagnostics: [expect.objectContaining({ code })],
      }),
    ]);
    // The --all hint only where it is right: a folder that holds skills and has no SKILL.md entry at all.
    if (folder === "nested") expect(result.err).toContain("did you mean 'skillgraph validate --all");
    else expect(result.err).toBe("");
  });

  it("a path that does not exist: a result too (skill-dir-missing), never an empty stdout", async () => {
    const result = await run(["validate", "--json", join(root, "does-not-exist")]);
    expect(result.code).toBe(1);
    const payload = JSON.parse(result.out) as ValidateJson;
    expect(payload.results[0]!.diagnostics.map((d) => d.code)).toEqual(["skill-dir-missing"]);
  });

  it("a regular file given as the skill folder: skill-dir-not-directory", async () => {
    const result = await run(["validate", "--json", join(root, "a.txt")]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out)).toEqual({
      results: [
        expect.objectContaining({
          valid: false,
          diagnostics: [expect.objectContaining({ code: "skill-dir-not-directory" })],
        }),
      ],
    });
  });

  it("several paths: one result each, in order", async () => {
    const result = await run([
      "validate",
      "--json",
      join(root, "fifo"),
      join(root, "tree", "ok"),
      join(root, "nested"),
    ]);
    expect(result.code).toBe(1);
    const payload = JSON.parse(result.out) as ValidateJson;
    expect(payload.results.map((entry) => [entry.path, entry.valid])).toEqual([
      [join(root, "fifo"), false],
      [join(root, "tree", "ok"), true],
      [join(root, "nested"), false],
    ]);
  });
});

describe("validate --all reports what it could not open", () => {
  it("a dangling folder link and a dangling SKILL.md link are invalid entries (exit 1)", async () => {
    const result = await run(["validate", "--all", "--json", join(root, "tree")]);
    expect(result.code).toBe(1);
    const payload = JSON.parse(result.out) as ValidateJson;
    expect(payload.results.map((entry) => [entry.path, entry.valid, entry.diagnostics.map((d) => d.code)])).toEqual([
      [join(root, "tree", "ok"), true, []],
      [join(root, "tree", "dangling"), false, ["skill-md-missing"]],
      [join(root, "tree", "gone"), false, ["source-dangling-link"]],
    ]);
    const text = await run(["validate", "--all", join(root, "tree")]);
    expect(text.code).toBe(1);
    expect(text.out).toContain("1 valid, 2 invalid");
    expect(text.out).toMatch(/gone .*\n {4}error: source-dangling-link/);
  });

  it("list reports a dangling link once, as a warning on stderr", async () => {
    const result = await run(["list", "--skills", join(root, "tree")]);
    expect(result.out).toContain("ok");
    expect(result.err.split("source-dangling-link")).toHaveLength(2);
  });
});

describe("small things said right", () => {
  it.each([
    ["-v", "skillgraph --version"],
    ["--versoin", "skillgraph --version"],
    ["valdiate", "skillgraph validate"],
  ])("%s: exit 2, one line with a did-you-mean, no full help", async (given, meant) => {
    const result = await run([given]);
    expect(result.code).toBe(2);
    expect(result.out).toBe("");
    expect(result.err).toBe(
      `error: unknown command '${given}' (did you mean '${meant}'?)\nRun 'skillgraph --help' for every command.\n`,
    );
  });

  it("--limit -3: the command's own message about the number, not parseArgs' 'ambiguous'", async () => {
    const result = await run(["search", "release", "--limit", "-3", "--skills", join(root, "tree")]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^error: skillgraph search: --limit must be a positive integer, not '-3'\n/);
    expect(result.err).not.toContain("ambiguous");
  });

  it("port 1: says fetch refuses that port, not a bare 'connection failed'", async () => {
    const io = captureIO(root, { OPENAI_BASE_URL: "http://127.0.0.1:1/v1" });
    const code = await runCli(["chat", "-p", "hi", "--ephemeral", "--skills", join(root, "tree")], io);
    expect(code).toBe(1);
    expect(io.err()).toContain(
      "error: cannot reach the model at http://127.0.0.1:1/v1: port 1 is one fetch refuses to connect to",
    );
  });

  it("--timeout is wall-clock against a server that never answers; the message counts the attempts", async () => {
    const sockets: import("node:net").Socket[] = [];
    const server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
    try {
      const io = captureIO(root, { OPENAI_BASE_URL: url });
      const started = Date.now();
      const code = await runCli(
        ["chat", "-p", "hi", "--ephemeral", "--timeout", "1", "--skills", join(root, "tree")],
        io,
      );
      const elapsed = Date.now() - started;
      expect(code).toBe(1);
      expect(io.err()).toContain(
        `error: the model at ${url} did not answer within 1 s (1 attempt, retries included; raise the limit with --timeout SECONDS)`,
      );
      // Measured, not asserted: the whole call (the CLI allows one retry) ends at the limit.
      console.log(`chat --timeout 1 against a silent server: exit ${code} after ${elapsed} ms`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
