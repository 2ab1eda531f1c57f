import type { SkillMetadata } from "../skill/skill-types.js";
import type { RenderedSkillsPrompt, RenderSkillsPromptOptions } from "./prompt-types.js";
import { renderWithBudget } from "./render-with-budget.js";
import { resolveRenderOptions } from "./resolve-render-options.js";

/** Renders a skills list with fixed options; pass a `cacheKey` to reuse the result for an unchanged list. */
export type SkillsPromptRenderer = (skills: readonly SkillMetadata[], cacheKey?: string) => RenderedSkillsPrompt;

const cacheSize = 16;

/**
 * A renderer for per-model-call use: options are checked once here (InvalidOptionsError), and results are memoised
 * by the caller's `cacheKey` (e.g. `${catalog.version}:${viewId}`; the last 16 keys are kept) and by the identity
 * of the skills array. Results are frozen; a cache key must change whenever the list changes.
 *
 * @param options format, budget, preamble, tool names (see renderSkillsPrompt)
 * @example
 * const render = createSkillsPromptRenderer({ budget: { maxTokens: 2000, countTokens } });
 * const { text, report } = render(catalog.list(), `v${catalog.version}`);
 */
export function createSkillsPromptRenderer(options?: RenderSkillsPromptOptions): SkillsPromptRenderer {
  const settings = resolveRenderOptions(options);
  const byKey = new Map<string, RenderedSkillsPrompt>();
  const byList = new WeakMap<readonly SkillMetadata[], RenderedSkillsPrompt>();
  return (skills, cacheKey) => {
    const cached = cacheKey === undefined ? byList.get(skills) : byKey.get(cacheKey);
    if (cached) return cached;
    const result = freeze(renderWithBudget(skills, settings));
    byList.set(skills, result);
    if (cacheKey !== undefined) {
      byKey.set(cacheKey, result);
      if (byKey.size > cacheSize) byKey.delete(byKey.keys().next().value as string);
    }
    return result;
  };
}

function freeze(result: RenderedSkillsPrompt): RenderedSkillsPrompt {
  const { report } = result;
  Object.freeze(report.shortened);
  Object.freeze(report.namesOnly);
  Object.freeze(report.omitted);
  Object.freeze(report);
  return Object.freeze(result);
}
