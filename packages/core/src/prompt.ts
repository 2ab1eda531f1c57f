// @skillgraph/core/prompt: the skills section of a system prompt (budgeted, byte-stable) and the reference to-prompt.
export { toPrompt } from "./prompt/to-prompt.js";
export { escapeHtml } from "./prompt/escape-html.js";
export { defaultPreamble } from "./prompt/resolve-render-options.js";
export { renderSkillsPrompt } from "./prompt/render-skills-prompt.js";
export { createSkillsPromptRenderer, type SkillsPromptRenderer } from "./prompt/create-skills-prompt-renderer.js";
export { estimateTokens } from "./prompt/estimate-tokens.js";
export type {
  PromptFormat,
  PromptTemplate,
  PromptBudget,
  PromptSkillEntry,
  RenderSkillsPromptOptions,
  RenderLevel,
  RenderReport,
  RenderedSkillsPrompt,
} from "./prompt/prompt-types.js";
