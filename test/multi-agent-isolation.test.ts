import { describe, expect, it } from "vitest";
import {
  Annotation,
  END,
  HumanMessage,
  MemorySaver,
  MessagesAnnotation,
  Send,
  START,
  StateGraph,
  createAgent,
  toolsCondition,
  type BaseMessage,
} from "../packages/langgraph/src/__fixtures__/langchain.js";
import {
  answer,
  callTool,
  RecordingChatModel,
  type ScriptedReply,
} from "../packages/langgraph/src/__fixtures__/recording-chat-model.js";
import {
  createTestRegistry,
  createTestTools,
  type SkillRegistry,
} from "../packages/langgraph/src/__fixtures__/test-skills.js";
import { createSkillsInterceptor, createSkillsMiddleware, getLoadedSkills } from "../packages/langgraph/src/index.js";
import { pickAgentSkillsState, SKILLS_STATE_KEY } from "../packages/langgraph/src/state.js";

const toolText = (messages: BaseMessage[]) =>
  messages
    .filter((message) => message.getType() === "tool")
    .map((message) => message.text)
    .join("\n");

/** A sub-agent built on the interceptor, compiled as its own graph (private messages). */
function interceptorSubAgent(registry: SkillRegistry, agentId: string, only: string[], script: ScriptedReply[]) {
  const skills = createSkillsInterceptor({
    skills: registry,
    agentId,
    only,
    loadMode: "session",
    tools: [createTestTools().makePdf],
  });
  const model = new RecordingChatModel(script);
  const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skills.stateSpec });
  const graph = new StateGraph(State)
    .addNode("agent", skills.callModel(model, { systemPrompt: `You are ${agentId}.` }))
    .addNode("tools", skills.toolNode())
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "agent")
    .compile();
  return { graph, model, agentId };
}

/** A sub-agent built on createAgent + middleware. */
function middlewareSubAgent(registry: SkillRegistry, agentId: string, only: string[], script: ScriptedReply[]) {
  const model = new RecordingChatModel(script);
  const graph = createAgent({
    model,
    tools: [],
    systemPrompt: `You are ${agentId}.`,
    middleware: [
      createSkillsMiddleware({
        skills: registry,
        agentId,
        only,
        loadMode: "session",
        tools: [createTestTools().makePdf],
      }),
    ],
  });
  return { graph, model, agentId };
}

type SubAgent = {
  graph: { invoke(input: unknown, config?: unknown): Promise<unknown> };
  model: RecordingChatModel;
  agentId: string;
};

/** Supervisor graph fanning out to sub-agents in parallel with Send; each writes only its own key of the skills channel. */
function supervisorGraph(subAgents: SubAgent[]) {
  const State = Annotation.Root({
    ...MessagesAnnotation.spec,
    ...createSkillsInterceptor({ skills: { list: () => [], readBody: async () => "" } as never }).stateSpec,
  });
  let builder = new StateGraph(State).addNode("supervisor", async () => ({}));
  for (const sub of subAgents) {
    builder = builder.addNode(sub.agentId, async (state: typeof State.State) => {
      const output = (await sub.graph.invoke({
        messages: state.messages.filter((message) => message.getType() === "human"),
        [SKILLS_STATE_KEY]: state[SKILLS_STATE_KEY],
      })) as { messages: BaseMessage[] };
      return { messages: [output.messages[output.messages.length - 1]!], ...pickAgentSkillsState(output, sub.agentId) };
    }) as never;
  }
  return builder
    .addEdge(START, "supervisor")
    .addConditionalEdges("supervisor", (state: typeof State.State) =>
      subAgents.map((sub) => new Send(sub.agentId, state)),
    )
    .compile({ checkpointer: new MemorySaver() });
}

describe.each([
  ["interceptor", interceptorSubAgent],
  ["middleware", middlewareSubAgent],
])("multi-agent isolation with %s sub-agents", (_kind, makeSubAgent) => {
  it("keeps each parallel sub-agent's skill subset and loaded state apart, with no channel collision", async () => {
    const registry = await createTestRegistry();
    const researcher = makeSubAgent(
      registry,
      "researcher",
      ["weather", "notes"],
      [callTool("read_skill", { name: "weather" }), callTool("read_skill", { name: "pdf-tools" }), answer("r")],
    );
    const writer = makeSubAgent(
      registry,
      "writer",
      ["pdf-tools"],
      [callTool("read_skill", { name: "pdf-tools" }), answer("w")],
    );
    const graph = supervisorGraph([researcher, writer]);
    const config = { configurable: { thread_id: "team-1" } };
    await graph.invoke({ messages: [new HumanMessage("go")] }, config);
    const values = (await graph.getState(config)).values;
    expect(getLoadedSkills(values, "researcher").map((entry) => entry.name)).toEqual(["weather"]);
    expect(getLoadedSkills(values, "writer").map((entry) => entry.name)).toEqual(["pdf-tools"]);
    expect(researcher.model.calls[0]!.system).not.toContain("pdf-tools");
    expect(writer.model.calls[0]!.system).not.toContain("weather");
    expect(toolText(researcher.model.calls[2]!.messages)).toContain("Skill 'pdf-tools' not found");
    expect(toolText(writer.model.calls[1]!.messages)).toContain("PDF BODY");
    expect(toolText(writer.model.calls[1]!.messages)).not.toContain("WEATHER BODY");
  });

  it("restores each sub-agent's own loaded skills on the next turn of the same thread, and none on another thread", async () => {
    const registry = await createTestRegistry();
    const researcher = makeSubAgent(
      registry,
      "researcher",
      ["weather", "notes"],
      [callTool("read_skill", { name: "weather" }), answer("r1"), answer("r2"), answer("r3")],
    );
    const writer = makeSubAgent(registry, "writer", ["pdf-tools"], [answer("w1"), answer("w2"), answer("w3")]);
    const graph = supervisorGraph([researcher, writer]);
    await graph.invoke({ messages: [new HumanMessage("first")] }, { configurable: { thread_id: "a" } });
    await graph.invoke({ messages: [new HumanMessage("other thread")] }, { configurable: { thread_id: "b" } });
    const threadB = (await graph.getState({ configurable: { thread_id: "b" } })).values;
    expect(getLoadedSkills(threadB, "researcher")).toEqual([]);
    await graph.invoke({ messages: [new HumanMessage("second")] }, { configurable: { thread_id: "a" } });
    const threadA = (await graph.getState({ configurable: { thread_id: "a" } })).values;
    expect(getLoadedSkills(threadA, "researcher").map((entry) => entry.name)).toEqual(["weather"]);
    expect(getLoadedSkills(threadA, "writer")).toEqual([]);
    expect(JSON.stringify(threadA)).not.toContain("WEATHER BODY");
  });
});

describe("one graph, one registry, two agents on the same messages", () => {
  it("materialises a read_skill result only for the agent that loaded it", async () => {
    const registry = await createTestRegistry();
    const first = createSkillsInterceptor({ skills: registry, agentId: "first", loadMode: "session" });
    const second = createSkillsInterceptor({ skills: registry, agentId: "second", loadMode: "session" });
    const firstModel = new RecordingChatModel([callTool("read_skill", { name: "notes" }), answer("first done")]);
    const secondModel = new RecordingChatModel([answer("second done")]);
    const State = Annotation.Root({ ...MessagesAnnotation.spec, ...first.stateSpec });
    const graph = new StateGraph(State)
      .addNode("first", first.callModel(firstModel))
      .addNode("first_tools", first.toolNode())
      .addNode("second", second.callModel(secondModel))
      .addEdge(START, "first")
      .addConditionalEdges("first", toolsCondition, { tools: "first_tools", [END]: "second" })
      .addEdge("first_tools", "first")
      .addEdge("second", END)
      .compile();
    const values = await graph.invoke({ messages: [new HumanMessage("go")] });
    expect(toolText(firstModel.calls[1]!.messages)).toContain("NOTES BODY");
    expect(toolText(secondModel.calls[0]!.messages)).not.toContain("NOTES BODY");
    expect(getLoadedSkills(values, "first").map((entry) => entry.name)).toEqual(["notes"]);
    expect(getLoadedSkills(values, "second")).toEqual([]);
  });
});
