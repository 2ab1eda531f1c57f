// A thread served by three processes in turn (createAgent + skills middleware + shell hook under bubblewrap), each
// against a freshly started endpoint that numbers its completions and calls from 1 again, as a restarted local server
// does: every turn is answered, and the stored history holds every turn in order, each call followed by its own
// result, no id twice. On SQLite and on PostgreSQL.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { closeCheckpointer, createCheckpointer } from "../packages/checkpoint/src/index.js";
import { createSkillRegistry, skillsFromDirectory } from "../packages/core/src/index.js";
import { createSkillsMiddleware } from "../packages/langgraph/src/index.js";
import { startOpenAICompatibleServer, type ScriptedReply } from "./support/openai-compatible-server.js";
import { REPO_ROOT } from "./support/shared-paths.js";
import { strictHistoryProblems } from "./support/strict-history.js";

const postgresUrl = inject("postgresUrl");
let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "history-integrity-"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

/** Runs one turn in a child process against `script` served by a new server; resolves once the child has exited. */
async function turnInNewProcess(checkpointUrl: string, threadId: string, prompt: string, script: ScriptedReply[]) {
  const server = await startOpenAICompatibleServer({ script });
  try {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/support/middleware-turn-child.ts", checkpointUrl, server.url, threadId, prompt],
      { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code, stderr).toBe(0);
    expect(server.errors).toEqual([]);
    return { answer: (JSON.parse(stdout.trim().split("\n").at(-1)!) as { answer: unknown }).answer, server };
  } finally {
    await server.close();
  }
}

async function storedMessages(checkpointUrl: string, threadId: string) {
  const checkpointer = await createCheckpointer(checkpointUrl);
  try {
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(`${REPO_ROOT}/examples/skills`)] });
    const agent = createAgent({
      model: new ChatOpenAI({ model: "unused", apiKey: "unused" }),
      tools: [],
      middleware: [createSkillsMiddleware({ skills: registry })],
      checkpointer,
    });
    const state = await (agent as unknown as { getState(config: unknown): Promise<{ values: unknown }> }).getState({
      configurable: { thread_id: threadId },
    });
    return (state.values as { messages: import("@langchain/core/messages").BaseMessage[] }).messages;
  } finally {
    await closeCheckpointer(checkpointer);
  }
}

const turns: Array<{ prompt: string; script: ScriptedReply[]; answer: string }> = [
  {
    prompt: "load the report builder",
    script: [{ toolCalls: [{ name: "read_skill", arguments: { name: "report-builder" } }] }, "Loaded it."],
    answer: "Loaded it.",
  },
  {
    prompt: "build the report",
    script: [
      {
        toolCalls: [
          {
            name: "run_skill_script",
            arguments: {
              skill: "report-builder",
              command: 'scripts/build-report.mjs in/sales.csv --title "Q3"',
              files: [{ path: "in/sales.csv", content: "region,units\nNorth,12\n" }],
            },
          },
        ],
      },
      "Built it.",
    ],
    answer: "Built it.",
  },
  { prompt: "thanks", script: ["You are welcome."], answer: "You are welcome." },
];

const savers: Array<{ name: string; url: () => string; skip?: string }> = [
  { name: "SQLite", url: () => `sqlite:${join(folder, "sessions.db")}` },
  {
    name: "PostgreSQL",
    url: () => `${postgresUrl}?schema=h_${randomBytes(4).toString("hex")}`,
    ...(postgresUrl ? {} : { skip: `no PostgreSQL server: ${inject("postgresUnavailable")}` }),
  },
];

describe.each(savers)("one thread over three processes, each against a restarted endpoint ($name)", (saver) => {
  it.skipIf(saver.skip !== undefined)(
    "every turn answered, stored in order, each call with its own result",
    async () => {
      const url = saver.url();
      const threadId = `t-${randomBytes(4).toString("hex")}`;
      for (const turn of turns) {
        const { answer } = await turnInNewProcess(url, threadId, turn.prompt, turn.script);
        expect(answer).toBe(turn.answer);
      }
      const messages = await storedMessages(url, threadId);
      expect(strictHistoryProblems(messages)).toEqual([]);
      const ids = messages.map((message) => message.id);
      expect(new Set(ids).size).toBe(ids.length);
      const humans = messages.filter((message) => message.getType() === "human").map((message) => message.content);
      expect(humans).toEqual(turns.map((turn) => turn.prompt));
      const answers = messages
        .filter(
          (message) => message.getType() === "ai" && (message as { tool_calls?: unknown[] }).tool_calls?.length === 0,
        )
        .map((message) => message.content);
      expect(answers).toEqual(turns.map((turn) => turn.answer));
    },
  );
});
