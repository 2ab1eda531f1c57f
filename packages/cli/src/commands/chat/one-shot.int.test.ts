// `chat -p` in a script: stdout carries only the final answer (text the model writes before a tool call is activity, on
// stderr), `--json` prints the whole run as one object, and a run with no skills says so. Against the local
// OpenAI-compatible server, in-process with captured (non-terminal) streams.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
  type ScriptedReply,
} from "../../../../../test/support/openai-compatible-server.js";
import type { CliIO } from "../../io/cli-io.js";
import { run } from "./index.js";

const skills = fileURLToPath(new URL("../../../../../examples/skills", import.meta.url));
let home: string;
let server: OpenAICompatibleServer | undefined;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "chat-one-shot-"));
});
afterAll(() => rm(home, { recursive: true, force: true }));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const script: ScriptedReply[] = [
  {
    content: "Let me look at the release-notes skill first.",
    toolCalls: [{ id: "call_1", name: "read_skill", arguments: { name: "release-notes" } }],
  },
  "## v1.2.0\n- Added the chat command.",
];

async function oneShot(args: string[], replies: ScriptedReply[], cwd = home) {
  server = await startOpenAICompatibleServer({ script: replies });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const io: CliIO = {
    stdout,
    stderr,
    stdin: Readable.from([""]),
    env: { HOME: home, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k" },
    cwd,
    color: false,
    isTTY: false,
  };
  const code = await run(["-p", "Release notes for v1.2.0", "--ephemeral", ...args], io);
  return { code, out, err };
}

describe("chat -p in a script", () => {
  it("prints only the final answer on stdout; the text before the tool call goes to stderr", async () => {
    const result = await oneShot(["--skills", skills], script);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toBe("## v1.2.0\n- Added the chat command.\n");
    expect(result.err).toContain("Let me look at the release-notes skill first.");
    expect(result.err).toContain("[skill] loaded release-notes");
  });

  it("--json: answer, tool calls with their results, loaded skills and usage in one object", async () => {
    const result = await oneShot(["--json", "--skills", skills], script);
    expect(result.code, result.err).toBe(0);
    const payload = JSON.parse(result.out) as {
      answer: string;
      toolCalls: Array<{ name: string; args: unknown; result?: string; isError?: boolean }>;
      loadedSkills: string[];
      usage: { inputTokens: number; outputTokens: number; totalTokens: number } | null;
    };
    expect(payload.answer).toBe("## v1.2.0\n- Added the chat command.");
    expect(payload.toolCalls).toEqual([
      expect.objectContaining({ name: "read_skill", args: { name: "release-notes" }, isError: false }),
    ]);
    expect(payload.toolCalls[0]!.result).toContain("release");
    expect(payload.loadedSkills).toEqual(["release-notes"]);
    expect(payload.usage).toEqual({
      inputTokens: expect.any(Number),
      outputTokens: expect.any(Number),
      totalTokens: expect.any(Number),
    });
    expect(payload.usage!.totalTokens).toBeGreaterThan(0);
  });

  it("with no skills anywhere it says so on stderr, and still answers", async () => {
    const result = await oneShot([], ["Hello."]);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toBe("Hello.\n");
    expect(result.err).toContain("no skills found: the agent runs without skills");
  });
});
