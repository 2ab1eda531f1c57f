import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { createAgent, summarizationMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { answer, callTool, RecordingChatModel } from "./__fixtures__/recording-chat-model.js";
import { createTestRegistry } from "./__fixtures__/test-skills.js";
import { describeSkillsRuntime, type SkillsRuntimeAgent } from "../../../test/suites/skills-runtime.suite.js";
import { describeSkillsRuntimePeers } from "../../../test/suites/skills-runtime-peers.suite.js";
import { getLoadedSkills } from "./index.js";
import { createSkillsMiddleware } from "./middleware.js";
import { MemorySaver } from "@langchain/langgraph";

describeSkillsRuntime({
  name: "createSkillsMiddleware in langchain createAgent",
  createAgent: ({ model, skillsOptions, tools, systemPrompt, checkpointer }) =>
    createAgent({
      model,
      tools,
      systemPrompt,
      middleware: [createSkillsMiddleware(skillsOptions)],
      checkpointer,
    }) as unknown as SkillsRuntimeAgent,
});

describeSkillsRuntimePeers({
  name: "createSkillsMiddleware in langchain createAgent",
  createAgent: ({ model, skillsOptions, tools, systemPrompt, checkpointer }) =>
    createAgent({
      model,
      tools,
      systemPrompt,
      middleware: [createSkillsMiddleware(skillsOptions)],
      checkpointer,
    }) as unknown as SkillsRuntimeAgent,
});

describe("createSkillsMiddleware outside the shared suite", () => {
  it("narrows the skills per invocation from the createAgent context", async () => {
    const registry = await createTestRegistry();
    const model = new RecordingChatModel([answer()]);
    const agent = createAgent({ model, tools: [], middleware: [createSkillsMiddleware({ skills: registry })] });
    await agent.invoke({ messages: [new HumanMessage("hi")] }, {
      context: { skills: { exclude: ["weather"] } },
    } as never);
    expect(model.last.system).toContain("pdf-tools");
    expect(model.last.system).not.toContain("weather");
  });

  it("sends the system prompt of each call's skills, never one kept from an earlier call of the same agent", async () => {
    const registry = await createTestRegistry();
    const model = new RecordingChatModel([answer(), answer(), answer()]);
    const agent = createAgent({
      model,
      tools: [],
      systemPrompt: "BASE PROMPT",
      middleware: [createSkillsMiddleware({ skills: registry })],
    });
    const systems: string[] = [];
    for (const exclude of [["weather"], [], ["weather"]]) {
      await agent.invoke({ messages: [new HumanMessage("hi")] }, { context: { skills: { exclude } } } as never);
      systems.push(model.last.system);
    }
    for (const system of systems) expect(system.startsWith("BASE PROMPT\n\n")).toBe(true);
    expect(systems.map((system) => system.includes("weather"))).toEqual([false, true, false]);
  });

  it("keeps a system message of content blocks ahead of the skills text on every call", async () => {
    const registry = await createTestRegistry();
    const model = new RecordingChatModel([answer(), answer()]);
    const agent = createAgent({
      model,
      tools: [],
      systemPrompt: new SystemMessage({ content: [{ type: "text", text: "BLOCK ONE" }] }),
      middleware: [createSkillsMiddleware({ skills: registry })],
    });
    for (const text of ["hi", "again"]) {
      await agent.invoke({ messages: [new HumanMessage(text)] });
      expect(model.last.system.startsWith("BLOCK ONE\n\n")).toBe(true);
      expect(model.last.system).toContain("pdf-tools");
    }
  });

  it("restores a loaded skill's instructions after langchain's summarizationMiddleware summarised its read_skill result away", async () => {
    const registry = await createTestRegistry();
    const model = new RecordingChatModel([
      callTool("read_skill", { name: "notes" }),
      answer("first"),
      answer("second"),
      answer("third"),
    ]);
    const summariser = new FakeListChatModel({ responses: ["The user asked for notes twice."] });
    const summarization = summarizationMiddleware({
      model: summariser,
      trigger: { messages: 7 },
      keep: { messages: 2 },
    });
    const agent = createAgent({
      model,
      tools: [],
      middleware: [summarization, createSkillsMiddleware({ skills: registry, loadMode: "session" })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "summarised" } };
    await agent.invoke({ messages: [new HumanMessage("one")] }, config);
    await agent.invoke({ messages: [new HumanMessage("two")] }, config);
    expect(model.last.system).not.toContain("restored_skills");
    await agent.invoke({ messages: [new HumanMessage("three")] }, config);
    const sent = model.last.messages.map((message) => message.text).join("\n");
    expect(sent).toContain("The user asked for notes twice.");
    expect(sent).not.toContain("NOTES BODY");
    expect(model.last.system).toContain("<restored_skills>");
    expect(model.last.system).toContain("NOTES BODY");
    const snapshot = await (agent as unknown as { getState(config: unknown): Promise<{ values: unknown }> }).getState(
      config,
    );
    expect(getLoadedSkills(snapshot.values).map((entry) => entry.name)).toEqual(["notes"]);
  });

  it("adds its afterAgent node only when a load mode can end with the turn, and a turn skill among session ones still goes when the agent answers", async () => {
    const registry = await createTestRegistry();
    const nodesOf = (options: Parameters<typeof createSkillsMiddleware>[0]) =>
      Object.keys(
        createAgent({ model: new RecordingChatModel([]), tools: [], middleware: [createSkillsMiddleware(options)] })
          .graph.nodes,
      );
    expect(nodesOf({ skills: registry })).not.toContain("SkillsMiddleware.after_agent");
    expect(nodesOf({ skills: registry, loadModes: { notes: "session" } })).not.toContain(
      "SkillsMiddleware.after_agent",
    );
    expect(nodesOf({ skills: registry, loadMode: "once" })).toContain("SkillsMiddleware.after_agent");
    expect(nodesOf({ skills: registry, loadModes: { notes: "turn" } })).toContain("SkillsMiddleware.after_agent");

    const model = new RecordingChatModel([
      callTool("read_skill", { name: "notes" }),
      callTool("read_skill", { name: "pdf-tools" }),
      answer("first"),
    ]);
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createSkillsMiddleware({ skills: registry, loadModes: { notes: "turn" } })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "mixed-modes" } };
    await agent.invoke({ messages: [new HumanMessage("one")] }, config);
    const { values } = await (agent as unknown as { getState(config: unknown): Promise<{ values: unknown }> }).getState(
      config,
    );
    expect(getLoadedSkills(values).map((entry) => [entry.name, entry.mode])).toEqual([["pdf-tools", "session"]]);
  });

  it("is also exported from the ./middleware subpath", async () => {
    const root = await import("./index.js");
    expect(root.createSkillsMiddleware).toBe(createSkillsMiddleware);
  });
});
