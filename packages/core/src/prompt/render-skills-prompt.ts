import type { SkillMetadata } from "../skill/skill-types.js";
import type { RenderedSkillsPrompt, RenderSkillsPromptOptions } from "./prompt-types.js";
import { renderWithBudget } from "./render-with-budget.js";
import { resolveRenderOptions } from "./resolve-render-options.js";

/**
 * Renders the skills list for a system prompt: a short preamble, then the skills sorted by name, within a budget.
 * When the list does not fit it degrades: shortened descriptions, then names only, then a count with a pointer to
 * the search tool (listing as many names as fit). `report` says what was shortened or left out; no skill is dropped
 * silently. For repeated calls use createSkillsPromptRenderer (options checked once, results memoised).
 *
 * @param skills level-1 metadata, e.g. `catalog.list()`
 * @param options `format` ("xml" | "markdown" | template), `budget` ({ maxChars, maxTokens, countTokens }), `preamble`, tool names
 * @default format "xml", budget { maxChars: 8000 }, readToolName "read_skill", searchToolName "search_skills"
 * @example
 * const { text, report } = renderSkillsPrompt(catalog.list(), { budget: { maxChars: 4000 } });
 * if (report.level !== "full") console.warn(`skills list degraded to ${report.level}`);
 */
export function renderSkillsPrompt(
  skills: readonly SkillMetadata[],
  options?: RenderSkillsPromptOptions,
): RenderedSkillsPrompt {
  return renderWithBudget(skills, resolveRenderOptions(options));
}
