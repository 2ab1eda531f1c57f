// End to end: ChatOpenAI talks HTTP to the local OpenAI-compatible server; the skills runtime, the chat agent and the
// `skillgraph chat` command run for real. Every request body the "model" received is recorded and asserted.
// Root-level tests cannot resolve the packages' dependencies by name, so workspace code is imported by path.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createListMergedChangesTool,
  MERGED_CHANGES,
} from "../../packages/cli/src/commands/chat/__fixtures__/list-merged-changes-tool.js";
import { NO_ENDPOINT_MESSAGE } from "../../packages/cli/src/commands/chat/chat-endpoint.js";
import type { ChatEvent } from "../../packages/cli/src/commands/chat/chat-event.js";
import { createChatAgent, DEFAULT_CHAT_SYSTEM_PROMPT } from "../../packages/cli/src/commands/chat/create-chat-agent.js";
import { createChatModel } from "../../packages/cli/src/commands/chat/create-chat-model.js";
import { createSkillRegistry, skillsFromDirectory, type SkillCatalog } from "../../packages/core/src/index.js";
import { createSkillsInterceptor } from "../../packages/langgraph/src/index.js";
import {
  restartServer,
  startOpenAICompatibleServer,
  textOf,
  type OpenAICompatibleServer,
} from "../support/openai-compatible-server.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const skillsDir = join(root, "examples/skills");
const skillBody = async (name: string) =>
  (await readFile(join(skillsDir, name, "SKILL.md"), "utf8")).split("---").slice(2).join("---").trim();

let registry: SkillCatalog;
let server: OpenAICompatibleServer | undefined;
beforeAll(async () => {
  registry = await createSkillRegistry({ sources: [skillsFromDirectory(skillsDir)] });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * The system prompt the chat agent must send, as the skills runtime builds it for our prompt (the hand-built interceptor shape,
 * same engine); checked independently to list every skill's name and description and no skill body.
 */
async function expectedSystemPrompt(catalog: SkillCatalog): Promise<string> {
  const prepared = await createSkillsInterceptor({ skills: catalog }).prepareModelRequest({ messages: [] }, undefined, {
    systemPrompt: DEFAULT_CHAT_SYSTEM_PROMPT,
  });
  const prompt = prepared.systemText;
  expect(prompt.startsWith(`${DEFAULT_CHAT_SYSTEM_PROMPT}\n\n`)).toBe(true);
  for (const skill of catalog.list()) {
    expect(prompt).toContain(skill.name);
    expect(prompt).toContain(skill.description);
    expect(prompt).not.toContain(await skillBody(skill.name));
  }
  return prompt;
}

const endpoint = (url: string) => ({ baseURL: url, apiKey: "sk-e2e", model: "e2e-model" });

async function collect(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe("ChatOpenAI against the local server", () => {
  const readSkillTool = {
    type: "function" as const,
    function: {
      name: "read_skill",
      description: "Load a skill",
      parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
  };

  it("non-streaming: sends stream false, the bound tools and the messages; parses the scripted tool call", async () => {
    server = await startOpenAICompatibleServer({
      script: [{ toolCalls: [{ id: "call_x", name: "read_skill", arguments: { name: "sql-review" } }] }],
    });
    const model = createChatModel(endpoint(server.url)).bindTools([readSkillTool]);
    const reply = await model.invoke([
      { role: "system", content: "Be brief." },
      { role: "user", content: "review my query" },
    ]);
    expect(reply.tool_calls).toEqual([
      { id: "call_x", name: "read_skill", args: { name: "sql-review" }, type: "tool_call" },
    ]);
    const [request] = server.requests;
    expect(request!.stream).toBe(false);
    expect(request!.model).toBe("e2e-model");
    expect(request!.headers.authorization).toBe("Bearer sk-e2e");
    expect(request!.tools).toEqual([readSkillTool]);
    expect(request!.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "review my query" },
    ]);
  });

  it("streaming: text arrives in several chunks, tool call deltas are reassembled and the usage chunk becomes usage_metadata", async () => {
    server = await startOpenAICompatibleServer({
      script: [
        {
          content: "Loading the skill now.",
          toolCalls: [{ id: "call_s", name: "read_skill", arguments: { name: "release-notes" } }],
        },
      ],
    });
    const model = createChatModel(endpoint(server.url)).bindTools([readSkillTool]);
    const chunks = [];
    for await (const chunk of await model.stream([{ role: "user", content: "release notes please" }]))
      chunks.push(chunk);
    expect(chunks.filter((chunk) => chunk.text !== "").length).toBeGreaterThan(1);
    const whole = chunks.reduce((sum, chunk) => sum.concat(chunk));
    expect(whole.text).toBe("Loading the skill now.");
    expect(whole.tool_calls).toEqual([
      { id: "call_s", name: "read_skill", args: { name: "release-notes" }, type: "tool_call" },
    ]);
    expect(whole.usage_metadata?.total_tokens).toBeGreaterThan(0);
    expect(server.requests[0]!.stream).toBe(true);
    expect(server.requests[0]!.body.stream_options).toEqual({ include_usage: true });
  });
});

describe("the chat agent (SkillsInterceptor graph on the delta messages channel) over ChatOpenAI", () => {
  it("read_skill, then the skill's own tool, then an answer: asserts the system prompt, tool list and messages at each step", async () => {
    const answer = "## v1.3.0\n\n### Breaking changes\n- Rename `--dir` to `--source` (#44)";
    server = await startOpenAICompatibleServer({
      script: [
        { toolCalls: [{ id: "call_load", name: "read_skill", arguments: { name: "release-notes" } }] },
        { toolCalls: [{ id: "call_changes", name: "list_merged_changes", arguments: { since: "v1.2.0" } }] },
        answer,
      ],
    });
    const changes = createListMergedChangesTool();
    const chat = createChatAgent({
      model: createChatModel(endpoint(server.url)),
      skills: registry,
      skillsOptions: { skillTools: { "release-notes": [changes.tool] } },
    });
    const events = await collect(chat.turn("Release notes for v1.3.0 please"));

    expect(server.errors).toEqual([]);
    expect(server.requests).toHaveLength(3);
    const [first, second, third] = server.requests;
    const systemPrompt = await expectedSystemPrompt(registry);

    // Step 1: the skills list in the system prompt; the skills tools only (the skill's tool is hidden until the skill is loaded).
    expect(first!.stream).toBe(true);
    expect(first!.systemPrompt).toBe(systemPrompt);
    expect(first!.toolNames.sort()).toEqual(["list_skill_files", "read_skill", "read_skill_file", "search_skills"]);
    // The interceptor appends the skills section to the agent's own system prompt, as one string.
    expect(systemPrompt.startsWith(DEFAULT_CHAT_SYSTEM_PROMPT)).toBe(true);
    expect(first!.messages).toEqual([
      { role: "system", content: systemPrompt },
      { role: "user", content: "Release notes for v1.3.0 please" },
    ]);

    // Step 2: same system prompt (byte-stable), the skill's tool now listed, the body in the read_skill result.
    expect(second!.systemPrompt).toBe(systemPrompt);
    expect(second!.toolNames.sort()).toEqual([
      "list_merged_changes",
      "list_skill_files",
      "read_skill",
      "read_skill_file",
      "search_skills",
    ]);
    expect(second!.messages.slice(1, 3)).toEqual([
      { role: "user", content: "Release notes for v1.3.0 please" },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          {
            id: "call_load",
            type: "function",
            function: { name: "read_skill", arguments: '{"name":"release-notes"}' },
          },
        ],
      },
    ]);
    const loaded = second!.messages[3]!;
    expect(loaded.role).toBe("tool");
    expect(loaded.tool_call_id).toBe("call_load");
    expect(textOf(loaded.content)).toContain(
      `<skill_content name="release-notes">\n${await skillBody("release-notes")}\n</skill_content>`,
    );
    expect(textOf(loaded.content)).toContain("references/format.md");
    expect(second!.messages).toHaveLength(4);

    // Step 3: the skill's tool ran once with the model's arguments; its output is the last message.
    expect(changes.calls).toEqual([{ since: "v1.2.0" }]);
    expect(third!.messages).toHaveLength(6);
    expect(third!.messages[5]).toMatchObject({ role: "tool", tool_call_id: "call_changes" });
    expect(textOf(third!.messages[5]!.content)).toBe(["Merged since v1.2.0:", ...MERGED_CHANGES].join("\n"));
    expect(textOf(third!.messages[3]!.content)).toContain(await skillBody("release-notes"));

    // What the CLI shows, in order: call, load, unlock, result, call, result, the streamed answer. The skill stays
    // loaded after the answer (session, the default load mode), so no turn-end unload follows.
    const activity = events
      .filter((event) => event.type !== "token")
      .map((event) =>
        event.type === "skill" ? `skill:${event.event.type}:${event.event.skill}` : `${event.type}:${event.name}`,
      );
    expect(activity).toEqual([
      "tool-call:read_skill",
      "skill:skill-loaded:release-notes",
      "skill:tools-unlocked:release-notes",
      "tool-result:read_skill",
      "tool-call:list_merged_changes",
      "tool-result:list_merged_changes",
    ]);
    const tokens = events.flatMap((event) => (event.type === "token" ? [event.text] : []));
    expect(tokens.length).toBeGreaterThan(3);
    expect(tokens.join("")).toBe(answer);
  });

  it("invoked without a stream, the same agent sends stream false and the same system prompt, and parses JSON tool calls", async () => {
    server = await startOpenAICompatibleServer({
      script: [
        { toolCalls: [{ id: "call_json", name: "read_skill", arguments: { name: "sql-review" } }] },
        "Looks fine.",
      ],
    });
    const chat = createChatAgent({ model: createChatModel(endpoint(server.url)), skills: registry });
    const state = await chat.agent.invoke(
      { messages: [{ role: "user", content: "check SELECT 1" }] },
      { configurable: { thread_id: chat.threadId } },
    );
    expect(server.requests.map((request) => request.stream)).toEqual([false, false]);
    expect(server.requests[0]!.systemPrompt).toBe(await expectedSystemPrompt(registry));
    expect(textOf(server.requests[1]!.messages.at(-1)!.content)).toContain(await skillBody("sql-review"));
    expect(state.messages.at(-1)!.text).toBe("Looks fine.");
  });

  it("blocks the skill's tool before the skill is loaded: the tool never runs and the model gets an error result", async () => {
    server = await startOpenAICompatibleServer({
      script: [
        { toolCalls: [{ id: "call_early", name: "list_merged_changes", arguments: { since: "v1" } }] },
        "I need to load the skill first.",
      ],
    });
    const changes = createListMergedChangesTool();
    const chat = createChatAgent({
      model: createChatModel(endpoint(server.url)),
      skills: registry,
      skillsOptions: { skillTools: { "release-notes": [changes.tool] } },
    });
    const events = await collect(chat.turn("changes?"));
    expect(changes.calls).toEqual([]);
    const result = server.requests[1]!.messages.at(-1)!;
    expect(result).toMatchObject({ role: "tool", tool_call_id: "call_early" });
    expect(textOf(result.content)).toContain("release-notes");
    expect(events).toContainEqual(
      expect.objectContaining({ type: "tool-result", name: "list_merged_changes", isError: true }),
    );
  });

  it("keeps the conversation on its thread: the second turn resends the first and the turn-scoped skill body is left out", async () => {
    server = await startOpenAICompatibleServer({
      script: [
        { toolCalls: [{ id: "call_1", name: "read_skill", arguments: { name: "sql-review" } }] },
        "Add a WHERE clause.",
        "You asked about DELETE FROM orders.",
      ],
    });
    const chat = createChatAgent({
      model: createChatModel(endpoint(server.url)),
      skills: registry,
      skillsOptions: { loadMode: "turn" },
      threadId: "thread-e2e",
    });
    expect(chat.threadId).toBe("thread-e2e");
    await collect(chat.turn("Review: DELETE FROM orders"));
    await collect(chat.turn("What did I ask before?"));
    const third = server.requests[2]!;
    expect(third.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    expect(textOf(third.messages[3]!.content)).not.toContain(await skillBody("sql-review"));
    expect(textOf(third.messages[3]!.content)).toContain("no longer loaded");
    expect(third.messages.at(-1)).toEqual({ role: "user", content: "What did I ask before?" });
  });
});

describe("skillgraph chat as a child process", () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "skillgraph-chat-home-"));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  /** Runs the real CLI (TypeScript sources through tsx) with a clean environment plus `env`. */
  function runCli(
    args: string[],
    env: Record<string, string>,
    stdin = "",
  ): Promise<{ code: number | null; stdout: string; stderr: string; session: string[] | undefined }> {
    const child = spawn(
      process.execPath,
      ["--conditions=@skillgraph/source", "--import", "tsx", "packages/cli/src/bin.ts", "chat", ...args],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? "/usr/bin",
          HOME: home,
          NO_COLOR: "1",
          SKILLGRAPH_CHECKPOINT: `sqlite:${join(home, "sessions.db")}`,
          ...env,
        },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(stdin);
    // The session line ("session NAME (new; ...)") is checked by the session test; the others ignore it.
    return new Promise((resolveRun) =>
      child.on("close", (code) =>
        resolveRun({
          code,
          stdout,
          stderr: stderr.replace(/^session \S+ \((new|resumed)[^\n]*\n/m, ""),
          session: /^session (\S+) \((new|resumed)/m.exec(stderr)?.slice(1),
        }),
      ),
    );
  }

  it("keeps every chat in a SQLite session that --session NAME resumes with the earlier turns; --ephemeral keeps none", async () => {
    server = await startOpenAICompatibleServer({
      script: [
        { toolCalls: [{ id: "call_1", name: "read_skill", arguments: { name: "commit-message" } }] },
        "First answer.",
        "Second answer.",
      ],
    });
    const first = await runCli(["-p", "first question", "--skills", "examples/skills", "--session", "work"], {
      OPENAI_BASE_URL: server.url,
    });
    expect(first.code).toBe(0);
    expect(first.session).toEqual(["work", "new"]);
    // the second process talks to a restarted server, whose completion and call ids start over
    server = await restartServer(server);
    const second = await runCli(["-p", "second question", "--skills", "examples/skills", "--session", "work"], {
      OPENAI_BASE_URL: server.url,
    });
    expect(second.code).toBe(0);
    expect(second.session).toEqual(["work", "resumed"]);
    expect(second.stdout).toBe("Second answer.\n");
    const resumed = server.requests[0]!.messages.map((message) => [message.role, textOf(message.content).slice(0, 20)]);
    expect(resumed.filter(([role]) => role === "user")).toEqual([
      ["user", "first question"],
      ["user", "second question"],
    ]);
    expect(resumed).toContainEqual(["assistant", "First answer."]);

    const other = await runCli(["-p", "hi", "--skills", "examples/skills", "--ephemeral"], {
      OPENAI_BASE_URL: server.url,
    });
    expect(other.session).toBeUndefined();
  });

  it("-p streams the answer to stdout and reports the skill load and tool calls on stderr", async () => {
    server = await startOpenAICompatibleServer({
      script: [
        { toolCalls: [{ id: "call_1", name: "read_skill", arguments: { name: "commit-message" } }] },
        "feat(cli): add the chat command",
      ],
    });
    const result = await runCli(
      ["-p", "Commit message for the new chat command", "--skills", "examples/skills", "--model", "cli-model"],
      { OPENAI_BASE_URL: server.url },
    );
    const lines = result.stderr.split("\n");
    expect(lines.slice(0, 2)).toEqual(['[tool] read_skill {"name":"commit-message"}', "[skill] loaded commit-message"]);
    expect(lines[2]).toMatch(/^\[tool\] read_skill -> \d+ lines, \d+ chars$/);
    expect(lines.slice(3)).toEqual([""]);
    expect(result.stdout).toBe("feat(cli): add the chat command\n");
    expect(result.code).toBe(0);
    expect(server.requests.map((request) => [request.model, request.stream, request.headers.authorization])).toEqual([
      ["cli-model", true, "Bearer not-needed"],
      ["cli-model", true, "Bearer not-needed"],
    ]);
    expect(server.requests[0]!.systemPrompt).toBe(await expectedSystemPrompt(registry));
    expect(server.requests[0]!.messages.at(-1)).toEqual({
      role: "user",
      content: "Commit message for the new chat command",
    });
  });

  it("reads one turn per line from piped stdin, keeping the conversation", async () => {
    server = await startOpenAICompatibleServer({ script: ["First answer.", "Second answer."] });
    const result = await runCli(
      ["--skills", "examples/skills", "--quiet"],
      { OPENAI_BASE_URL: server.url, SKILLGRAPH_MODEL: "env-model" },
      "hello\nand again\n",
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("First answer.\nSecond answer.\n");
    expect(server.requests.map((request) => request.model)).toEqual(["env-model", "env-model"]);
    expect(server.requests[1]!.messages.slice(1).map((message) => [message.role, textOf(message.content)])).toEqual([
      ["user", "hello"],
      ["assistant", "First answer."],
      ["user", "and again"],
    ]);
  });

  it("says exactly what to set and exits 2 when no endpoint is configured", async () => {
    const result = await runCli(["-p", "hi"], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(NO_ENDPOINT_MESSAGE);
    expect(result.stdout).toBe("");
  });

  it("exits 1 with the server's error message when the model call fails", async () => {
    server = await startOpenAICompatibleServer({
      script: [{ errorStatus: 404, errorMessage: "The model `nope` does not exist" }],
    });
    const result = await runCli(["-p", "hi", "--skills", "examples/skills", "--model", "nope"], {
      OPENAI_BASE_URL: server.url,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n").filter((line) => line.startsWith("error:"))).toEqual([
      `error: 404 The model \`nope\` does not exist (from ${server.url})`,
    ]);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("runs the documented demo: the server in CLI mode with the demo script, then skillgraph chat -p against it", async () => {
    const serverProcess = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "test/support/openai-compatible-server.ts",
        "--script",
        "test/e2e/__fixtures__/chat-demo-script.json",
      ],
      {
        cwd: root,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    try {
      const url = await new Promise<string>((resolveUrl, rejectUrl) => {
        serverProcess.stdout.once("data", (chunk: Buffer) => resolveUrl(chunk.toString().trim()));
        serverProcess.once("exit", (code) => rejectUrl(new Error(`demo server exited with ${code}`)));
      });
      const result = await runCli(["-p", "Release notes for v1.3.0", "--skills", "examples/skills"], {
        OPENAI_BASE_URL: url,
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain("[skill] loaded release-notes\n");
      expect(result.stderr).toContain("[tool] read_skill_file");
      // stdout is a pipe: only the final answer; what the model said before its tool call is activity (stderr).
      expect(result.stdout).toMatch(/^## v1\.3\.0 \(2026-11-22\)\n/);
      expect(result.stderr).toContain("Let me load the release-notes skill.");
      expect(result.stdout).toContain("Migration: pass `--source DIR` instead of `--dir DIR`.");
    } finally {
      serverProcess.kill("SIGTERM");
    }
  });
});
