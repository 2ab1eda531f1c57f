// @skillgraph/core/hooks (for integrations): the contract between the skills runtime and a tool provider such as
// @skillgraph/shell, generic over the tool type (@skillgraph/langgraph exports it with LangChain tools).
export type { SkillsToolHook, SkillsToolHookContext, SkillsToolAuthorization } from "./hooks/skills-tool-hook.js";
