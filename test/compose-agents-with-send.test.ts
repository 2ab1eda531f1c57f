// Two compiled createAgent graphs (`.graph`) added directly as nodes of a parent graph and fanned out with Send, over two turns:
// no wrapper node, no pickAgentSkillsState. Each branch writes back the whole skills channel it ended with, including
// a stale copy of the other agent's entry; the reducer keeps the newest entry per agent (by its sequence number).
import { describe, expect, it } from "vitest";
import {
  Annotation,
  HumanMessage,
  MemorySaver,
  MessagesAnnotation,
  Send,
  START,
  StateGraph,
  createAgent,
} from "../packages/langgraph/src/__fixtures__/langchain.js";
import { answer, callTool, RecordingChatModel } from "../packages/langgraph/src/__fixtures__/recording-chat-model.js";
import { createTestRegistry } from "../packages/langgraph/src/__fixtures__/test-skills.js";
import { createSkillsMiddleware, getLoadedSkills } from "../packages/langgraph/src/index.js";
import { skillsStateSpec } from "../packages/langgraph/src/state.js";

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
});
