// `skillgraph chat --session NAME -p ...` four times on one session (read_skill, a skill script, a plain answer, a
// reference file), the endpoint restarted before every run (its completion and call ids start over), under every
// endpoint profile: every answer is printed once, and the stored session holds every turn in order, each call right
// before its own result, no id twice; what the model is sent is a history a strict server accepts.
// The runs are in-process `runCli` calls, each opening the session afresh (a real second process is in
// chat-session-workspace.int.test.ts and chat-openai.int.test.ts).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChatOpenAI } from "@langchain/openai";
import type { BaseMessage } from "@langchain/core/messages";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createChatAgent } from "../../packages/cli/src/commands/chat/create-chat-agent.js";
import { captureIO } from "../../packages/cli/src/__fixtures__/capture-io.js";
import { runCli } from "../../packages/cli/src/run-cli.js";
import { closeCheckpointer, createCheckpointer } from "../../packages/checkpoint/src/index.js";
import { createSkillRegistry, skillsFromDirectory } from "../../packages/core/src/index.js";
import { createBubblewrapExecutor } from "../../packages/shell/src/index.js";
import {
  PROFILE_PRESETS,
  restartServer,
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
  type ProfilePresetName,
  type ScriptedReply,
} from "../support/openai-compatible-server.js";
import { REPO_ROOT } from "../support/shared-paths.js";
import { strictHistoryProblems } from "../support/strict-history.js";

const skills = join(REPO_ROOT, "examples/skills");
const sandboxed = (() => {
  try {
    createBubblewrapExecutor();
    return true;
  } catch {
    return false;
  }
})();
const executorFlags = sandboxed ? [] : ["--unsafe-local"];
let home: string;
let server: OpenAICompatibleServer | undefined;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "chat-session-profiles-"));
});
afterAll(() => rm(home, { recursive: true, force: true }));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function chat(session: string, prompt: string, baseURL: string) {
  const io = captureIO(home, { OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: "k" });
  const code = await runCli(
    ["chat", "--session", session, "-p", prompt, "--skills", skills, "--approve-all", ...executorFlags],
    io,
  );
  return { code, out: io.out(), err: io.err() };
}

async function storedMessages(session: string): Promise<BaseMessage[]> {
  const checkpointer = await createCheckpointer(`sqlite:${join(home, ".skillgraph/sessions.db")}`);
  try {
    const chatAgent = createChatAgent({
      model: new ChatOpenAI({ model: "unused", apiKey: "unused" }),
      skills: await createSkillRegistry({ sources: [skillsFromDirectory(skills)] }),
      checkpointer,
      threadId: session,
    });
    const state = await chatAgent.agent.getState({ configurable: { thread_id: session } });
    return (state.values as { messages: BaseMessage[] }).messages;
  } finally {
    await closeCheckpointer(checkpointer);
  }
}

const turns: Array<{ prompt: string; script: ScriptedReply[]; answer: string }> = [
  {
    prompt: "load the report builder",
    script: [{ toolCalls: [{ name: "read_skill", arguments: { name: "report-builder" } }] }, "Loaded."],
    answer: "Loaded.",
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
      "Built.",
    ],
    answer: "Built.",
  },
  { prompt: "thanks", script: ["You are welcome."], answer: "You are welcome." },
  {
    prompt: "what format do release notes use?",
    script: [
      { toolCalls: [{ name: "read_skill", arguments: { name: "release-notes" } }] },
      { toolCalls: [{ name: "read_skill_file", arguments: { name: "release-notes", path: "references/format.md" } }] },
      "Keep a Changelog.",
    ],
    answer: "Keep a Changelog.",
  },
];

describe("one chat session over four runs, the endpoint restarted before each", () => {
  it.each(Object.keys(PROFILE_PRESETS) as ProfilePresetName[])("%s", async (profile) => {
    const session = `s-${profile}`;
    server = await startOpenAICompatibleServer({ script: turns.flatMap((turn) => turn.script), profile, seed: 3 });
    for (const [index, turn] of turns.entries()) {
      if (index > 0) server = await restartServer(server);
      const result = await chat(session, turn.prompt, server.url);
      expect(result.code, result.err).toBe(0);
      expect(result.out).toBe(`${turn.answer}\n`);
      expect(strictHistoryProblems(server.requests.at(-1)!.messages)).toEqual([]);
    }
    expect(server.errors).toEqual([]);
    const messages = await storedMessages(session);
    expect(strictHistoryProblems(messages)).toEqual([]);
    const ids = messages.map((message) => message.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(messages.filter((message) => message.getType() === "human").map((message) => message.content)).toEqual(
      turns.map((turn) => turn.prompt),
    );
    const answers = messages.filter(
      (message) =>
        message.getType() === "ai" && ((message as { tool_calls?: unknown[] }).tool_calls ?? []).length === 0,
    );
    expect(answers.map((message) => message.content)).toEqual(turns.map((turn) => turn.answer));
    const results = messages
      .filter((message) => message.getType() === "tool")
      .map((message) => String(message.content));
    expect(results).toHaveLength(4);
    for (const result of results) expect(result).not.toMatch(/cancelled|not valid JSON|not run/);
  });
});
