// `chat -p` against endpoints at their worst: ids repeated within a thread, empty and shared tool-call ids, arguments
// that are not JSON, replies with nothing in them, error bodies the OpenAI SDK does not read. Every run either
// answers or says why not and exits non-zero; the history it leaves is one a strict server accepts.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  startOpenAICompatibleServer,
  textOf,
  type OpenAICompatibleServer,
  type ScriptedReply,
} from "../../../../../test/support/openai-compatible-server.js";
import { strictHistoryProblems } from "../../../../../test/support/strict-history.js";
import { captureIO } from "../../__fixtures__/capture-io.js";
import { run } from "./index.js";

const skills = fileURLToPath(new URL("../../../../../examples/skills", import.meta.url));
let home: string;
let server: OpenAICompatibleServer | undefined;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "chat-quirks-"));
});
afterAll(() => rm(home, { recursive: true, force: true }));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function oneShot(replies: ScriptedReply[], args: string[] = []) {
  server = await startOpenAICompatibleServer({ script: replies });
  const io = captureIO(home, { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k" });
  const code = await run(["-p", "Release notes for v1.2.0", "--ephemeral", "--skills", skills, ...args], io);
  return { code, out: io.out(), err: io.err() };
}

const readSkill = (id: string) => ({ id, name: "read_skill", arguments: { name: "release-notes" } });
const listFiles = (id: string) => ({ id, name: "list_skill_files", arguments: { name: "release-notes" } });

describe("chat -p against endpoints at their worst", () => {
  it("one fixed call id, two tool calls in a row: both run and the answer is printed once", async () => {
    const result = await oneShot([{ toolCalls: [readSkill("call_0")] }, { toolCalls: [listFiles("call_0")] }, "Done."]);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toBe("Done.\n");
    const last = server!.requests.at(-1)!.messages;
    expect(strictHistoryProblems(last)).toEqual([]);
    const results = last.filter((message) => message.role === "tool").map((message) => textOf(message.content));
    expect(results).toHaveLength(2);
    expect(results[1]).not.toContain("cancelled");
  });

  it("empty tool-call ids: the call runs and later requests carry no empty id", async () => {
    const result = await oneShot([{ toolCalls: [readSkill("")] }, "Done."]);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toBe("Done.\n");
    expect(strictHistoryProblems(server!.requests.at(-1)!.messages)).toEqual([]);
  });

  it("one id shared by two parallel calls: both results reach the model, under distinct ids", async () => {
    const result = await oneShot([{ toolCalls: [readSkill("call_x"), listFiles("call_x")] }, "Done."]);
    expect(result.code, result.err).toBe(0);
    const last = server!.requests.at(-1)!.messages;
    expect(strictHistoryProblems(last)).toEqual([]);
    expect(last.filter((message) => message.role === "tool")).toHaveLength(2);
  });

  it("arguments that are not JSON go back to the model as an error it can correct", async () => {
    const result = await oneShot([
      { toolCalls: [{ id: "call_1", name: "read_skill", arguments: "{'name': 'release-notes'" }] },
      { toolCalls: [readSkill("call_2")] },
      "Done.",
    ]);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toBe("Done.\n");
    const second = server!.requests[1]!.messages;
    expect(strictHistoryProblems(second)).toEqual([]);
    const told = textOf(second.at(-1)!.content);
    expect(told).toContain("not valid JSON");
    expect(told).toContain("{'name': 'release-notes'");
  });

  it("a reply with nothing in it is a run without an answer: stderr says so, exit 1, nothing on stdout", async () => {
    const result = await oneShot([""]);
    expect(result.code).toBe(1);
    expect(result.out).toBe("");
    expect(result.err).toContain("no answer: the model's reply was empty");
  });

  it("--json reports a run without an answer", async () => {
    const result = await oneShot([""], ["--json"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out)).toMatchObject({ answered: false, error: "no answer: the model's reply was empty" });
  });

  it.each(["error-event", "drop", "malformed"] as const)(
    "a stream that fails midway (%s): exit 1, nothing partial on stdout, the endpoint named",
    async (kind) => {
      const result = await oneShot([
        {
          content: "Here is the first part of a long answer that will not finish",
          streamFailure: { afterChunks: 4, kind },
        },
      ]);
      expect(result.code).toBe(1);
      expect(result.out).toBe("");
      expect(result.err).toContain(server!.url);
    },
  );

  it("a context-length error in vLLM's body shape: the server's own reason is shown", async () => {
    const result = await oneShot([{ error: { contextLength: "vllm" } }]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/maximum context length/i);
    expect(result.err).not.toContain("(no body)");
  });

  it("a 429 with Retry-After is retried and the run answers", async () => {
    const result = await oneShot([{ error: { status: 429, retryAfter: 1, message: "slow down" } }, "Done."]);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toBe("Done.\n");
  });

  it("an answer cut off by the token limit is printed with a warning; --json says cutOff", async () => {
    const cut = { content: "The release notes are as follows and they go on", cutOff: true };
    const plain = await oneShot([cut]);
    expect(plain.code, plain.err).toBe(0);
    expect(plain.err).toContain("cut off by the endpoint's output token limit");
    const json = await oneShot([cut], ["--json"]);
    expect(JSON.parse(json.out)).toMatchObject({ answered: true, cutOff: true });
  });
});
