// A session damaged the way older skillgraph versions stored them (ChatOpenAI's `chatcmpl-N` completion id as the
// AI message id, so a later reply replaced an earlier AI message and orphaned its result; a server numbering tool
// calls `call_0` in every response), written through the real chat graph into a real SQLite sessions database. Then
// `sessions show` flags it, `sessions repair` fixes it, and `skillgraph chat --session` sends the local server a
// request in which every tool result follows its own call.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { acquireSessionLease, closeCheckpointer, createCheckpointer } from "@skillgraph/checkpoint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startOpenAICompatibleServer,
  textOf,
  type WireMessage,
} from "../../../../../test/support/openai-compatible-server.js";
import type { CliIO } from "../../io/cli-io.js";
import { run as runChat } from "../chat/index.js";
import { openChatSession } from "./chat-session-graph.js";
import { run } from "./index.js";

const root = fileURLToPath(new URL("../../../../../", import.meta.url));
let dir: string;
const url = () => `sqlite:${join(dir, "sessions.db")}`;

function captureIO(env: NodeJS.ProcessEnv = {}) {
  const chunks = { stdout: "", stderr: "" };
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on("data", (chunk: Buffer) => (chunks.stdout += chunk.toString()));
  stderr.on("data", (chunk: Buffer) => (chunks.stderr += chunk.toString()));
  const io: CliIO = {
    stdout,
    stderr,
    stdin: Readable.from([""]),
    env: { HOME: dir, SKILLGRAPH_CHECKPOINT: url(), ...env },
    cwd: root,
    color: false,
    isTTY: false,
  };
  return { io, chunks };
}

const readSkill = (id: string) => ({
  id,
  name: "read_skill",
  args: { name: "sql-review" },
  type: "tool_call" as const,
});

/** A read_skill result as the chat's tool node stored it: message id `run-<run id>-tool-<call id>`. */
const toolResult = (content: string, runId: string) =>
  new ToolMessage({ content, tool_call_id: "call_0", name: "read_skill", id: `${runId}-tool-call_0` });

/** Writes `steps` through the chat graph as the node that stored them (what the old engine's replies and tools wrote). */
async function writeSession(name: string, steps: Array<[node: "agent" | "tools", messages: BaseMessage[]]>) {
  const saver = await createCheckpointer(url());
  const { graph, config } = await openChatSession(saver, name);
  for (const [node, messages] of steps) await graph.updateState(config, { messages }, node);
  await closeCheckpointer(saver);
}

/** What a strict server accepts: each tool result right after its own call, each call answered once, ids unique. */
function wireProblems(messages: readonly WireMessage[]): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (let at = 0; at < messages.length; at++) {
    const message = messages[at]!;
    if (message.role === "tool") problems.push(`messages[${at}]: tool result not right after its call`);
    if (message.role !== "assistant" || !message.tool_calls?.length) continue;
    const pending = new Set<string>();
    for (const call of message.tool_calls) {
      if (!call.id || ids.has(call.id)) problems.push(`messages[${at}]: tool call id '${call.id}' empty or repeated`);
      ids.add(call.id);
      pending.add(call.id);
    }
    while (messages[at + 1]?.role === "tool") {
      const id = messages[++at]!.tool_call_id!;
      if (!pending.delete(id)) problems.push(`messages[${at}]: tool result for '${id}' answers no open call`);
    }
    for (const id of pending) problems.push(`call '${id}' has no result after it`);
  }
  return problems;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sg-sessions-repair-"));
  await writeSession("old", [
    // First chat run: the server's completion ids start at chatcmpl-1, its tool calls are numbered call_0.
    ["agent", [new HumanMessage({ content: "Review DELETE FROM orders", id: "u1" })]],
    ["agent", [new AIMessage({ content: "", id: "chatcmpl-1", tool_calls: [readSkill("call_0")] })]],
    ["tools", [toolResult("first load", "run-1")]],
    ["agent", [new AIMessage({ content: "Add a WHERE clause.", id: "chatcmpl-2" })]],
    // Second run, the server restarted: its reply's id chatcmpl-1 replaced the first AI message in place.
    ["agent", [new HumanMessage({ content: "And the UPDATE?", id: "u2" })]],
    ["agent", [new AIMessage({ content: "The UPDATE needs one too.", id: "chatcmpl-1" })]],
    ["agent", [new HumanMessage({ content: "Load the skill again", id: "u3" })]],
    ["agent", [new AIMessage({ content: "", id: "chatcmpl-3", tool_calls: [readSkill("call_0")] })]],
    ["tools", [toolResult("second load", "run-2")]],
    // Ctrl-C during the third call_0: no result stored.
    ["agent", [new AIMessage({ content: "", id: "chatcmpl-4", tool_calls: [readSkill("call_0")] })]],
  ]);
  await writeSession("bad-args", [
    ["agent", [new HumanMessage({ content: "go", id: "b1" })]],
    [
      "agent",
      [
        new AIMessage({
          content: "",
          id: "chatcmpl-9",
          tool_calls: [],
          invalid_tool_calls: [
            { name: "read_skill", args: '{"name": sql', id: "call_7", error: "bad JSON", type: "invalid_tool_call" },
          ],
          additional_kwargs: {
            tool_calls: [
              { id: "call_7", type: "function", function: { name: "read_skill", arguments: '{"name": sql' } },
            ],
          },
        }),
      ],
    ],
  ]);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("skillgraph sessions show / repair on a session saved by an older version", () => {
  it("show flags the damage: a warning block naming each problem and the repair command; --json lists problems", async () => {
    const human = captureIO();
    expect(await run(["show", "old"], human.io)).toBe(0);
    expect(human.chunks.stdout).toContain("Warning: this session's history is damaged");
    expect(human.chunks.stdout).toContain("message 2: orphan-result");
    expect(human.chunks.stdout).toContain("message 8: unanswered-call");
    expect(human.chunks.stdout).toContain("Run: skillgraph sessions repair old");
    expect(human.chunks.stdout).toContain("calls read_skill [call_0]");
    const json = captureIO();
    expect(await run(["show", "old", "--json"], json.io)).toBe(0);
    const shown = JSON.parse(json.chunks.stdout) as {
      problems: Array<{ code: string; index: number; toolCallId?: string }>;
      messages: Array<{ type: string; tool_calls?: Array<{ id: string; name: string }> }>;
    };
    expect(shown.problems.map((p) => [p.code, p.index])).toEqual([
      ["orphan-result", 2],
      ["unanswered-call", 8],
      ["duplicate-tool-call-id", 8],
    ]);
    expect(shown.messages).toHaveLength(9);
    expect(shown.messages[8]!.tool_calls).toEqual([{ id: "call_0", name: "read_skill", args: { name: "sql-review" } }]);
  });

  it("show lists a call whose arguments did not parse instead of an empty AI message; repair answers it", async () => {
    const human = captureIO();
    expect(await run(["show", "bad-args"], human.io)).toBe(0);
    expect(human.chunks.stdout).toContain("invalid call read_skill [call_7]: bad JSON");
    expect(human.chunks.stdout).toContain("message 1: unanswered-call");
    expect(human.chunks.stdout).toContain("Run: skillgraph sessions repair bad-args");
    const json = captureIO();
    await run(["show", "bad-args", "--json"], json.io);
    const shown = JSON.parse(json.chunks.stdout) as { messages: Array<{ invalid_tool_calls?: unknown[] }> };
    expect(shown.messages[1]!.invalid_tool_calls).toEqual([
      { id: "call_7", name: "read_skill", args: '{"name": sql', error: "bad JSON" },
    ]);
    const repair = captureIO();
    expect(await run(["repair", "bad-args"], repair.io)).toBe(0);
    expect(repair.chunks.stdout).toContain("message 1: read_skill [call_7]");
    expect(repair.chunks.stdout).toContain("Left as they are (model servers accept them):");
    const after = captureIO();
    await run(["show", "bad-args", "--json"], after.io);
    const stored = JSON.parse(after.chunks.stdout) as { messages: Array<{ content: string; toolCallId?: string }> };
    expect(stored.messages[2]).toMatchObject({ toolCallId: "call_7" });
    expect(stored.messages[2]!.content).toContain("was not run: its arguments did not parse (bad JSON)");
  });

  it("repair writes nothing while a chat holds the session's lease: exit 1 naming the holder", async () => {
    const saver = await createCheckpointer(url());
    const lease = await acquireSessionLease(saver, "old");
    try {
      const busy = captureIO();
      expect(await run(["repair", "old"], busy.io)).toBe(1);
      expect(busy.chunks.stderr).toContain(`session old is in use by pid ${process.pid}`);
    } finally {
      await lease.release();
      await closeCheckpointer(saver);
    }
    const shown = captureIO();
    await run(["show", "old", "--json"], shown.io);
    expect(JSON.parse(shown.chunks.stdout).messages).toHaveLength(9);
  });

  it("repair refuses a session with stored writes of an unfinished step (a new checkpoint would leave them behind)", async () => {
    await writeSession("unfinished", [
      ["agent", [new HumanMessage({ content: "go", id: "p1" })]],
      [
        "agent",
        [new AIMessage({ content: "", id: "chatcmpl-1", tool_calls: [readSkill("call_0"), readSkill("call_1")] })],
      ],
    ]);
    const saver = await createCheckpointer(url());
    try {
      const tuple = await saver.getTuple({ configurable: { thread_id: "unfinished", checkpoint_ns: "" } });
      const finished = new ToolMessage({ content: "done first", tool_call_id: "call_0", id: "run-9-tool-call_0" });
      await saver.putWrites(tuple!.config, [["messages", [finished]]], "tools-task");
    } finally {
      await closeCheckpointer(saver);
    }
    const refused = captureIO();
    expect(await run(["repair", "unfinished"], refused.io)).toBe(1);
    expect(refused.chunks.stderr).toContain("holds 1 stored write(s) of an unfinished step");
  });

  it("repair --dry-run says what it would write and writes nothing", async () => {
    const dry = captureIO();
    expect(await run(["repair", "old", "--dry-run", "--json"], dry.io)).toBe(0);
    const report = JSON.parse(dry.chunks.stdout) as {
      dryRun: boolean;
      cancelled: Array<{ index: number }>;
      sound: boolean;
    };
    expect(report).toMatchObject({
      dryRun: true,
      sound: true,
      renamed: [{ index: 8, callIndex: 0, from: "call_0", to: "call_0-skillgraph-1" }],
      cancelled: [{ index: 8, toolCallId: "call_0-skillgraph-1" }],
    });
    const shown = captureIO();
    await run(["show", "old", "--json"], shown.io);
    expect(JSON.parse(shown.chunks.stdout).messages).toHaveLength(9);
  });

  it("repair answers the dangling call, deletes nothing, exits 0; the next request pairs every result with its call", async () => {
    const repair = captureIO();
    expect(await run(["repair", "old"], repair.io)).toBe(0);
    expect(repair.chunks.stdout).toContain('Answered 1 tool call(s) left without a result with a "cancelled" result:');
    expect(repair.chunks.stdout).toContain("Gave 1 repeated or empty tool-call id(s) a unique id");
    expect(repair.chunks.stdout).toContain("message 8: call_0 -> call_0-skillgraph-1");
    expect(repair.chunks.stdout).toContain("message 8: read_skill [call_0-skillgraph-1]");
    expect(repair.chunks.stdout).toContain("Left in storage (no stored message is deleted)");
    expect(repair.chunks.stdout).toContain("Session 'old' is sound");
    const again = captureIO();
    expect(await run(["repair", "old", "--json"], again.io)).toBe(0);
    const second = JSON.parse(again.chunks.stdout) as {
      cancelled: unknown[];
      sound: boolean;
      after: Array<{ code: string }>;
    };
    expect(second.cancelled).toEqual([]);
    expect(second.sound).toBe(true);
    expect(second.after.map((p) => p.code)).toEqual(["orphan-result"]);
    const shown = captureIO();
    await run(["show", "old", "--json"], shown.io);
    const stored = JSON.parse(shown.chunks.stdout) as { messages: Array<{ type: string; content: string }> };
    expect(stored.messages).toHaveLength(10);
    expect(stored.messages.map((m) => m.content)).toContain("first load");

    const server = await startOpenAICompatibleServer({ script: ["That is all."] });
    try {
      const chat = captureIO({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-test" });
      const code = await runChat(["-p", "Is that all?", "--session", "old", "--skills", "examples/skills"], chat.io);
      expect(chat.chunks.stderr).not.toContain("error");
      expect(code).toBe(0);
      expect(server.errors).toEqual([]);
      const sent = server.requests[0]!.messages;
      expect(wireProblems(sent)).toEqual([]);
      const tools = sent.filter((message) => message.role === "tool").map((message) => textOf(message.content));
      expect(tools).toEqual(["second load", expect.stringContaining("was cancelled")]);
      expect(sent.map((message) => textOf(message.content))).not.toContain("first load");
      expect(sent.at(-1)).toMatchObject({ role: "user", content: "Is that all?" });
    } finally {
      await server.close();
    }
  });

  it("a reply whose only call has arguments that do not parse is answered in its own run; show finds nothing to repair", async () => {
    const server = await startOpenAICompatibleServer({
      script: [{ toolCalls: [{ id: "call_bad", name: "read_skill", arguments: '{"name": sql' }] }, "Fine."],
    });
    try {
      const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-test" };
      const chat = captureIO(env);
      await runChat(["-p", "Review it", "--session", "raw-call", "--skills", "examples/skills"], chat.io);
      expect(server.errors).toEqual([]);
      const sent = server.requests[1]!.messages;
      expect(wireProblems(sent)).toEqual([]);
      const answer = sent.find((message) => message.role === "tool");
      expect(answer).toMatchObject({ tool_call_id: "call_bad" });
      expect(textOf(answer!.content)).toContain("its arguments are not valid JSON");
      const shown = captureIO();
      expect(await run(["show", "raw-call"], shown.io)).toBe(0);
      expect(shown.chunks.stdout).toContain("read_skill [call_bad]");
      expect(shown.chunks.stdout).not.toContain("sessions repair");
    } finally {
      await server.close();
    }
  });
});
