// tama's memory tools through real interceptor graphs: tama skills (`tools:` in their frontmatter) unlock them, two
// agents of one thread share what one stored (in the graph's store, or in this process without one), and a skill not
// loaded keeps them locked.
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import {
  Annotation,
  END,
  InMemoryStore,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { toolsCondition } from "@langchain/langgraph/prebuilt";
import { describe, expect, it } from "vitest";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { writeTree } from "../../../../../test/support/skill-tree.js";
import { answer, callTool, RecordingChatModel, type ScriptedReply } from "../../__fixtures__/recording-chat-model.js";
import { createSkillsInterceptor } from "../../index.js";
import { createMemoryTools } from "./index.js";

const tamaSkill = (name: string, tool: string) =>
  `---\nname: ${name}\ndescription: Use ${tool}.\ntools:\n  - ${tool}\n---\n\nCall ${tool}.\n`;
const skillsDir = writeTree({
  "mem-set/SKILL.md": tamaSkill("mem-set", "tama_mem_set"),
  "mem-get/SKILL.md": tamaSkill("mem-get", "tama_mem_get"),
  "mem-append/SKILL.md": tamaSkill("mem-append", "tama_mem_append"),
});

async function agentOn(
  agentId: string,
  script: ScriptedReply[],
  memory: ReturnType<typeof createMemoryTools>,
  store?: InMemoryStore,
) {
  const registry = await createSkillRegistry({ sources: [skillsFromDirectory(skillsDir)] });
  const skills = createSkillsInterceptor({ skills: registry, tools: memory, agentId });
  const model = new RecordingChatModel(script);
  const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skills.stateSpec });
  const graph = new StateGraph(State)
    .addNode("agent", skills.callModel(model))
    .addNode("tools", skills.toolNode())
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, { tools: "tools", __end__: END })
    .addEdge("tools", "agent")
    .compile({ checkpointer: new MemorySaver(), ...(store ? { store } : {}) });
  return { graph, model };
}

const toolText = (messages: BaseMessage[]) =>
  messages
    .filter((message) => message.getType() === "tool")
    .map((message) => message.text)
    .join("\n");

const stores: Array<[string, () => InMemoryStore | undefined]> = [
  ["the graph's store", () => new InMemoryStore()],
  ["this process (no store)", () => undefined],
];

describe.each(stores)("tama_mem_* kept in %s", (_where, makeStore) => {
  it("a researcher stores and appends, a reporter on the same thread reads it once its skill unlocks the tool", async () => {
    const store = makeStore();
    const memory = createMemoryTools();
    const config = { configurable: { thread_id: "pipeline-1" } };
    const researcher = await agentOn(
      "researcher",
      [
        callTool("read_skill", { name: "mem-set" }),
        callTool("tama_mem_set", { key: "topic", value: "tidal power" }),
        callTool("read_skill", { name: "mem-append" }),
        callTool("tama_mem_append", { key: "topic", value: "and wave power" }),
        answer(),
      ],
      memory,
      store,
    );
    await researcher.graph.invoke({ messages: [new HumanMessage("research")] }, config);
    const reporter = await agentOn(
      "reporter",
      [
        callTool("tama_mem_get", { key: "topic" }),
        callTool("read_skill", { name: "mem-get" }),
        callTool("tama_mem_get", { key: "topic" }),
        callTool("tama_mem_get", { key: "nothing" }),
        answer(),
      ],
      memory,
      store,
    );
    await reporter.graph.invoke({ messages: [new HumanMessage("report")] }, config);
    expect(toolText(reporter.model.calls[1]!.messages)).toContain("belongs to skill 'mem-get', which is not loaded");
    expect(toolText(reporter.model.calls[3]!.messages)).toContain("tidal power\nand wave power");
    expect(toolText(reporter.model.calls[4]!.messages)).toContain("[no value for key 'nothing']");
    if (store)
      expect((await store.get(["skillgraph", "memory", "pipeline-1"], "topic"))?.value).toEqual({
        text: "tidal power\nand wave power",
      });
    // another thread has its own memory
    const other = await agentOn(
      "reporter",
      [callTool("read_skill", { name: "mem-get" }), callTool("tama_mem_get", { key: "topic" }), answer()],
      memory,
      store,
    );
    await other.graph.invoke({ messages: [new HumanMessage("report")] }, { configurable: { thread_id: "pipeline-2" } });
    expect(toolText(other.model.calls[2]!.messages)).toContain("[no value for key 'topic']");
  });
});
