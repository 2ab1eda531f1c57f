import { HumanMessage } from "@langchain/core/messages";
import { Annotation, END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { toolsCondition } from "@langchain/langgraph/prebuilt";
import { describeSkillsRuntime, type SkillsRuntimeAgent } from "../../../test/suites/skills-runtime.suite.js";
import { describe, expect, it } from "vitest";
import { createTestRegistry, createTestTools } from "./__fixtures__/test-skills.js";
import { createSkillsInterceptor } from "./index.js";

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

describe("createSkillsInterceptor outside the shared suite", () => {
  it("rewrites a request for a custom model node with prepareModelRequest", async () => {
    const registry = await createTestRegistry();
    const { makePdf, noop } = createTestTools();
    const skills = createSkillsInterceptor({ skills: registry, tools: [makePdf] });
    const request = await skills.prepareModelRequest({ messages: [new HumanMessage("hi")] }, undefined, { systemPrompt: "Base.", tools: [noop] });
    expect(request.input[0]!.getType()).toBe("system");
    expect(request.systemText.startsWith("Base.\n\n")).toBe(true);
    expect(request.systemText).toContain("pdf-tools");
    expect(request.tools.map((tool) => tool.name)).toEqual(["noop", "read_skill", "read_skill_file", "search_skills", "list_skill_files"]);
    expect(request.update).toEqual({});
  });

  it("serves the skills tools, the pool and skillTools from one tools list", async () => {
    const registry = await createTestRegistry();
    const { makePdf, getForecast } = createTestTools();
    const skills = createSkillsInterceptor({ skills: registry, tools: [makePdf], skillTools: { weather: [getForecast] } });
    expect(skills.tools.map((tool) => tool.name)).toEqual(["read_skill", "read_skill_file", "search_skills", "list_skill_files", "make_pdf", "get_forecast"]);
  });

  it("rejects invalid options when created, naming the option", async () => {
    const registry = await createTestRegistry();
    expect(() => createSkillsInterceptor({ skills: registry, toolExposure: "sometimes" as never })).toThrow(/toolExposure/);
  });
});
