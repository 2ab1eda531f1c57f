import { HumanMessage } from "@langchain/core/messages";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { answer, RecordingChatModel } from "./__fixtures__/recording-chat-model.js";
import { createTestRegistry } from "./__fixtures__/test-skills.js";
import { describeSkillsRuntime, type SkillsRuntimeAgent } from "../../../test/suites/skills-runtime.suite.js";
import { createSkillsMiddleware } from "./middleware.js";

describeSkillsRuntime({
  name: "createSkillsMiddleware in langchain createAgent",
  createAgent: ({ model, skillsOptions, tools, systemPrompt, checkpointer }) =>
    createAgent({ model, tools, systemPrompt, middleware: [createSkillsMiddleware(skillsOptions)], checkpointer }) as unknown as SkillsRuntimeAgent,
});

describe("createSkillsMiddleware outside the shared suite", () => {
  it("narrows the skills per invocation from the createAgent context", async () => {
    const registry = await createTestRegistry();
    const model = new RecordingChatModel([answer()]);
    const agent = createAgent({ model, tools: [], middleware: [createSkillsMiddleware({ skills: registry })] });
    await agent.invoke({ messages: [new HumanMessage("hi")] }, { context: { skills: { exclude: ["weather"] } } } as never);
    expect(model.last.system).toContain("pdf-tools");
    expect(model.last.system).not.toContain("weather");
  });

  it("is also exported from the ./middleware subpath", async () => {
    const root = await import("./index.js");
    expect(root.createSkillsMiddleware).toBe(createSkillsMiddleware);
  });
});
