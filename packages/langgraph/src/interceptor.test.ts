import { AIMessage, HumanMessage, RemoveMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { Annotation, END, MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { toolsCondition } from "@langchain/langgraph/prebuilt";
import { describeSkillsRuntime, type SkillsRuntimeAgent } from "../../../test/suites/skills-runtime.suite.js";
import { describeSkillsRuntimePeers } from "../../../test/suites/skills-runtime-peers.suite.js";
import { describe, expect, it } from "vitest";
import { createTestRegistry, createTestTools } from "./__fixtures__/test-skills.js";
import { answer, callTool, RecordingChatModel } from "./__fixtures__/recording-chat-model.js";
import { createSkillsInterceptor, getLoadedSkills } from "./index.js";
import { cancelledToolMessageId } from "./repair.js";

describeSkillsRuntime({
  name: "createSkillsInterceptor in a hand-built StateGraph",
  createAgent: ({ model, skillsOptions, tools, systemPrompt, checkpointer }) => {
    const skills = createSkillsInterceptor(skillsOptions);
    const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skills.stateSpec });
    const graph = new StateGraph(State)
      .addNode("agent", skills.callModel(model, { systemPrompt, tools }))
      .addNode("tools", skills.toolNode(tools))
      .addNode("end_turn", skills.endTurn())
      .addEdge(START, "agent")
      .addConditionalEdges("agent", toolsCondition, { tools: "tools", [END]: "end_turn" })
      .addEdge("tools", "agent")
      .addEdge("end_turn", END)
      .compile({ checkpointer });
    return graph as unknown as SkillsRuntimeAgent;
  },
});

describeSkillsRuntimePeers({
  name: "createSkillsInterceptor in a hand-built StateGraph",
  createAgent: ({ model, skillsOptions, tools, systemPrompt, checkpointer }) => {
    const skills = createSkillsInterceptor(skillsOptions);
    const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skills.stateSpec });
    const graph = new StateGraph(State)
      .addNode("agent", skills.callModel(model, { systemPrompt, tools }))
      .addNode("tools", skills.toolNode(tools))
      .addNode("end_turn", skills.endTurn())
      .addEdge(START, "agent")
      .addConditionalEdges("agent", toolsCondition, { tools: "tools", [END]: "end_turn" })
      .addEdge("tools", "agent")
      .addEdge("end_turn", END)
      .compile({ checkpointer });
    return graph as unknown as SkillsRuntimeAgent;
  },
});

describe("createSkillsInterceptor outside the shared suite", () => {
  it("rewrites a request for a custom model node with prepareModelRequest", async () => {
    const registry = await createTestRegistry();
    const { makePdf, noop } = createTestTools();
    const skills = createSkillsInterceptor({ skills: registry, tools: [makePdf] });
    const request = await skills.prepareModelRequest({ messages: [new HumanMessage("hi")] }, undefined, {
      systemPrompt: "Base.",
      tools: [noop],
    });
    expect(request.input[0]!.getType()).toBe("system");
    expect(request.systemText.startsWith("Base.\n\n")).toBe(true);
    expect(request.systemText).toContain("pdf-tools");
    expect(request.tools.map((tool) => tool.name)).toEqual([
      "noop",
      "read_skill",
      "read_skill_file",
      "search_skills",
      "list_skill_files",
    ]);
    expect(request.update).toEqual({});
  });

  it("serves the skills tools, the pool and skillTools from one tools list", async () => {
    const registry = await createTestRegistry();
    const { makePdf, getForecast } = createTestTools();
    const skills = createSkillsInterceptor({
      skills: registry,
      tools: [makePdf],
      skillTools: { weather: [getForecast] },
    });
    expect(skills.tools.map((tool) => tool.name)).toEqual([
      "read_skill",
      "read_skill_file",
      "search_skills",
      "list_skill_files",
      "make_pdf",
      "get_forecast",
    ]);
  });

  it("restores a loaded skill's instructions in a graph that trims old messages with RemoveMessage", async () => {
    const registry = await createTestRegistry();
    const model = new RecordingChatModel([
      callTool("read_skill", { name: "notes" }),
      answer("first"),
      answer("second"),
    ]);
    const skills = createSkillsInterceptor({ skills: registry, loadMode: "session" });
    const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skills.stateSpec });
    // A trimming node as long-running graphs have: keep only the last user message before each model call.
    const trim = async (state: typeof State.State) => {
      const lastHuman = state.messages.findLastIndex((message) => message.getType() === "human");
      return { messages: state.messages.slice(0, lastHuman).map((message) => new RemoveMessage({ id: message.id! })) };
    };
    const graph = new StateGraph(State)
      .addNode("trim", trim)
      .addNode("agent", skills.callModel(model))
      .addNode("tools", skills.toolNode())
      .addEdge(START, "trim")
      .addEdge("trim", "agent")
      .addConditionalEdges("agent", toolsCondition, { tools: "tools", [END]: END })
      .addEdge("tools", "agent")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "trimmed" } };
    await graph.invoke({ messages: [new HumanMessage("one")] }, config);
    expect(model.calls[1]!.system).not.toContain("restored_skills");
    await graph.invoke({ messages: [new HumanMessage("two")] }, config);
    expect(model.last.messages.map((message) => message.text)).toEqual(["two"]);
    expect(model.last.system).toContain("<restored_skills>");
    expect(model.last.system).toContain("NOTES BODY");
    expect(getLoadedSkills((await graph.getState(config)).values).map((entry) => entry.name)).toEqual(["notes"]);
    expect(skills.loadedSkills((await graph.getState(config)).values)).toEqual(
      getLoadedSkills((await graph.getState(config)).values),
    );
  });

  it("persists the cancellation answer of a dangling tool call next to the reply, and sends it after its AI message", async () => {
    const registry = await createTestRegistry();
    const model = new RecordingChatModel([answer("ok")]);
    const skills = createSkillsInterceptor({ skills: registry });
    const dangling = new AIMessage({
      content: "",
      id: "ai-1",
      tool_calls: [{ name: "noop", args: {}, id: "lost-1", type: "tool_call" }],
    });
    const node = skills.callModel(model);
    const update = await node(
      {
        messages: [
          new HumanMessage({ content: "go", id: "h-1" }),
          dangling,
          new HumanMessage({ content: "again", id: "h-2" }),
        ],
      },
      {},
    );
    const types = update.messages.map((message: BaseMessage) => message.getType());
    expect(types).toEqual(["tool", "ai"]);
    expect(update.messages[0]!.id).toBe(cancelledToolMessageId("lost-1"));
    expect(model.last.messages.map((message) => message.getType())).toEqual(["human", "ai", "tool", "human"]);
    const stored = [
      new HumanMessage("go"),
      dangling,
      new HumanMessage("again"),
      update.messages[0]!,
      update.messages[1]!,
    ];
    await node({ messages: stored }, {});
    expect(model.last.messages.map((message) => message.getType())).toEqual(["human", "ai", "tool", "human", "ai"]);
    expect((model.last.messages[2] as ToolMessage).tool_call_id).toBe("lost-1");
  });

  it("rejects invalid options when created, naming the option", async () => {
    const registry = await createTestRegistry();
    expect(() => createSkillsInterceptor({ skills: registry, toolExposure: "sometimes" as never })).toThrow(
      /toolExposure/,
    );
  });
});
