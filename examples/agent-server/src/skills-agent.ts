// Graph `skills_agent`: createAgent + createSkillsMiddleware. The Agent Server gives it its checkpointer and store;
// per-run skill narrowing comes from `config.configurable.skills` or `context.skills` ({ only?, exclude? }).
import { createSkillsMiddleware } from "@skillgraph/langgraph";
import { createAgent } from "langchain";
import { createModel, loadMode, registry, shellHook } from "./shared.js";

export const agent = createAgent({
  model: createModel(),
  tools: [],
  systemPrompt: "You are a helpful engineer. Use the matching skill for every task.",
  middleware: [createSkillsMiddleware({ skills: registry, hooks: [shellHook], loadMode })],
});
