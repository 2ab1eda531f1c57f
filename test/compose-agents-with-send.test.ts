// Two compiled createAgent graphs (`.graph`) added directly as nodes of a parent graph and fanned out with Send, over two turns:
// no wrapper node, no pickAgentSkillsState. Each branch writes back the whole skills channel it ended with, including
// a stale copy of the other agent's entry; the reducer keeps the newest loads per agent (by their sequence number) and
// unites the disabled skills, so a disable that loads nothing (and raises no sequence number) survives the merge.
import { describe, expect, it } from "vitest";
import {
  AIMessage,
  Annotation,
  HumanMessage,
  MemorySaver,
  MessagesAnnotation,
  END,
  Send,
  START,
  toolsCondition,
  StateGraph,
  createAgent,
  emptyCheckpoint,
} from "../packages/langgraph/src/__fixtures__/langchain.js";
import { answer, callTool, RecordingChatModel } from "../packages/langgraph/src/__fixtures__/recording-chat-model.js";
import { createTestRegistry } from "../packages/langgraph/src/__fixtures__/test-skills.js";
import { createSkillsInterceptor, createSkillsMiddleware, getLoadedSkills } from "../packages/langgraph/src/index.js";
import { skillsStateSpec } from "../packages/langgraph/src/state.js";
import { readAgentSkillsState } from "../packages/langgraph/src/state/skills-state.js";

type Script = ReturnType<typeof callTool>[];

/** A createAgent graph with the skills middleware (disable_skill offered). */
function middlewareAgent(registry: Awaited<ReturnType<typeof createTestRegistry>>, agentId: string, script: Script) {
  const model = new RecordingChatModel(script);
  const graph = createAgent({
    model,
    tools: [],
    middleware: [createSkillsMiddleware({ skills: registry, agentId, allowDisableSkill: true })],
  }).graph;
  return { graph, model };
}

/** An interceptor agent compiled as its own graph (disable_skill offered). */
function interceptorAgent(registry: Awaited<ReturnType<typeof createTestRegistry>>, agentId: string, script: Script) {
  const skills = createSkillsInterceptor({ skills: registry, agentId, allowDisableSkill: true });
  const model = new RecordingChatModel(script);
  const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skills.stateSpec });
  const graph = new StateGraph(State)
    .addNode("agent", skills.callModel(model))
    .addNode("tools", skills.toolNode())
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "agent")
    .compile();
  return { graph, model };
}

/** Two agents fanned out with Send from START, the parent graph checkpointed. */
function fanOut(a: { graph: unknown }, b: { graph: unknown }) {
  const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skillsStateSpec });
  return new StateGraph(State)
    .addNode("a", a.graph as never)
    .addNode("b", b.graph as never)
    .addConditionalEdges(START, (state: typeof State.State) => [new Send("a", state), new Send("b", state)], ["a", "b"])
    .compile({ checkpointer: new MemorySaver() });
}

describe("compiled agents composed directly with Send", () => {
  it("keeps every skill each agent loaded over two turns of a parallel fan-out", async () => {
    const registry = await createTestRegistry();
    const agent = (agentId: string, first: string, second: string) =>
      createAgent({
        model: new RecordingChatModel([
          callTool("read_skill", { name: first }),
          answer(`${agentId} 1`),
          callTool("read_skill", { name: second }),
          answer(`${agentId} 2`),
        ]),
        tools: [],
        middleware: [createSkillsMiddleware({ skills: registry, agentId })],
      }).graph;
    const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skillsStateSpec });
    const graph = new StateGraph(State)
      .addNode("a", agent("a", "notes", "weather") as never)
      .addNode("b", agent("b", "pdf-tools", "git-helper") as never)
      .addConditionalEdges(START, (state: typeof State.State) => [new Send("a", state), new Send("b", state)], [
        "a",
        "b",
      ])
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "fan-out" } };
    await graph.invoke({ messages: [new HumanMessage("turn one")] }, config);
    const first = (await graph.getState(config)).values;
    expect(getLoadedSkills(first, "a").map((entry) => entry.name)).toEqual(["notes"]);
    expect(getLoadedSkills(first, "b").map((entry) => entry.name)).toEqual(["pdf-tools"]);
    await graph.invoke({ messages: [new HumanMessage("turn two")] }, config);
    const second = (await graph.getState(config)).values;
    expect(getLoadedSkills(second, "a").map((entry) => entry.name)).toEqual(["notes", "weather"]);
    expect(getLoadedSkills(second, "b").map((entry) => entry.name)).toEqual(["pdf-tools", "git-helper"]);
  });

  // Both directions: the reducer applies the branches' writes in a fixed order, so a disable in the first branch is the
  // one a replace-by-sequence rule loses (the second branch's stale copy of that agent has the same sequence number).
  for (const shape of [
    { name: "createAgent + middleware", build: middlewareAgent },
    { name: "interceptor graph", build: interceptorAgent },
  ])
    for (const [disabler, loader] of [
      ["a", "b"],
      ["b", "a"],
    ] as const)
      it(`${shape.name}: ${disabler} disables a skill it never loaded while ${loader} loads one; the disable survives the merge`, async () => {
        const registry = await createTestRegistry();
        const scripts: Record<string, Script> = {
          // Turn one loads a skill in each agent, so that in turn two each branch carries a copy of the other's entry.
          [disabler]: [
            callTool("read_skill", { name: "notes" }),
            answer("notes loaded"),
            callTool("disable_skill", { name: "weather" }),
            answer("disabled"),
            callTool("read_skill", { name: "weather" }),
            answer("could not"),
          ],
          [loader]: [
            callTool("read_skill", { name: "pdf-tools" }),
            answer("pdf loaded"),
            callTool("read_skill", { name: "git-helper" }),
            answer("git loaded"),
            answer("still here"),
          ],
        };
        const agents = { a: shape.build(registry, "a", scripts.a!), b: shape.build(registry, "b", scripts.b!) };
        const graph = fanOut(agents.a, agents.b);
        const config = { configurable: { thread_id: `disable-${disabler}` } };
        await graph.invoke({ messages: [new HumanMessage("turn one")] }, config);
        await graph.invoke({ messages: [new HumanMessage("turn two")] }, config);
        const second = (await graph.getState(config)).values;
        expect(readAgentSkillsState(second, disabler).disabled).toEqual(["weather"]);
        expect(readAgentSkillsState(second, loader).disabled).toEqual([]);
        expect(getLoadedSkills(second, loader).map((entry) => entry.name)).toEqual(["pdf-tools", "git-helper"]);
        expect(getLoadedSkills(second, disabler).map((entry) => entry.name)).toEqual(["notes"]);

        // The next turn reads the merged state: the disabler's catalog hides the skill, read_skill refuses it.
        await graph.invoke({ messages: [new HumanMessage("turn three")] }, config);
        const third = (await graph.getState(config)).values;
        expect(readAgentSkillsState(third, disabler).disabled).toEqual(["weather"]);
        expect(getLoadedSkills(third, disabler).map((entry) => entry.name)).toEqual(["notes"]);
        const calls = agents[disabler].model.calls;
        expect(calls.at(-2)!.system).not.toMatch(/Look up weather forecasts/);
        const refused = calls.at(-1)!.messages.at(-1)!;
        expect(refused.getType()).toBe("tool");
        expect(refused.text).toMatch(/weather/);
        expect(refused.text).not.toMatch(/WEATHER BODY/);
      });

  it("continues a thread saved before the merge change (an old checkpoint, one entry without a journal)", async () => {
    const registry = await createTestRegistry();
    const hash = (name: string) => registry.get(name)!.hash;
    // The channel value as the earlier reducer saved it after a turn in which a loaded notes (through its subgraph's
    // whole entry, journal included) and b only disabled a skill (an entry with seq 0 and no journal).
    const saved = {
      a: {
        load: {
          seq: 1,
          loaded: {
            notes: { name: "notes", mode: "session", loadedSeq: 1, lastUsedSeq: 1, hash: hash("notes"), docs: [] },
          },
          journal: {
            base: {},
            events: [{ type: "load", name: "notes", mode: "session", hash: hash("notes"), seq: 1 }],
          },
        },
        disabled: [],
      },
      b: { load: { seq: 0, loaded: {} }, disabled: ["pdf-tools"] },
    };
    const saver = new MemorySaver();
    const thread = { configurable: { thread_id: "saved-before", checkpoint_ns: "" } };
    await saver.put(
      thread,
      {
        ...emptyCheckpoint(),
        channel_values: { messages: [new HumanMessage("turn one"), new AIMessage("done")], skillgraph: saved },
        channel_versions: { messages: 1, skillgraph: 1 },
      },
      { source: "update", step: 1, parents: {} },
    );
    const agents = {
      a: middlewareAgent(registry, "a", [callTool("disable_skill", { name: "weather" }), answer("disabled")]),
      b: middlewareAgent(registry, "b", [callTool("read_skill", { name: "git-helper" }), answer("git loaded")]),
    };
    const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skillsStateSpec });
    const graph = new StateGraph(State)
      .addNode("a", agents.a.graph as never)
      .addNode("b", agents.b.graph as never)
      .addConditionalEdges(START, (state: typeof State.State) => [new Send("a", state), new Send("b", state)], [
        "a",
        "b",
      ])
      .compile({ checkpointer: saver });
    expect((await graph.getState(thread)).values.skillgraph).toEqual(saved);

    await graph.invoke({ messages: [new HumanMessage("turn two")] }, thread);
    const after = (await graph.getState(thread)).values;
    expect(getLoadedSkills(after, "a").map((entry) => entry.name)).toEqual(["notes"]);
    expect(readAgentSkillsState(after, "a").disabled).toEqual(["weather"]);
    expect(getLoadedSkills(after, "b").map((entry) => entry.name)).toEqual(["git-helper"]);
    expect(readAgentSkillsState(after, "b").disabled).toEqual(["pdf-tools"]);
    // b's first request of the turn was built from the saved state: the skill it disabled is not offered.
    expect(agents.b.model.calls[0]!.system).not.toMatch(/Create and edit PDF files/);
    expect(agents.b.model.calls[0]!.system).toMatch(/Git workflows/);
  });
});
