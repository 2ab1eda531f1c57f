import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { z } from "zod";
import { SEARCH_SKILLS } from "../../options/discovery-tool-names.js";
import { runsInInterceptor } from "../skill-name-schema.js";
import { toolError, type SkillsToolContext, type SkillsToolOutcome } from "../skills-tool-context.js";
import { QUERIES_DESCRIPTION, QUERY_DESCRIPTION, SEARCH_SKILLS_DESCRIPTION } from "./description.js";
import { MAX_SEARCH_PHRASING_LENGTH, MAX_SEARCH_PHRASINGS, searchPhrasings } from "./search-phrasings.js";

/** Name of the search tool. */
export { SEARCH_SKILLS } from "../../options/discovery-tool-names.js";

/** The model-facing `search_skills` tool (schema only; the interceptor runs it). */
export function buildSearchSkillsTool(): StructuredToolInterface {
  return tool(runsInInterceptor(SEARCH_SKILLS), {
    name: SEARCH_SKILLS,
    description: SEARCH_SKILLS_DESCRIPTION,
    schema: z.object({
      queries: z
        .array(z.string().max(MAX_SEARCH_PHRASING_LENGTH))
        .min(1)
        .max(MAX_SEARCH_PHRASINGS)
        .optional()
        .describe(QUERIES_DESCRIPTION),
      query: z.string().max(MAX_SEARCH_PHRASING_LENGTH).optional().describe(QUERY_DESCRIPTION),
    }),
  });
}

/**
 * Ranked search over this agent's visible skills, disabled skills left out. Several phrasings (`queries`, plus
 * `query` when given) are fused by reciprocal rank; the registry's `searchAsync` adds its `embeddings` model when one
 * is configured. When no result is confident, the answer says so and suggests what to try instead of reading as a
 * ranked answer.
 */
export async function runSearchSkills(args: unknown, context: SkillsToolContext): Promise<SkillsToolOutcome> {
  const phrasings = searchPhrasings(args);
  if ("error" in phrasings) return toolError(phrasings.error);
  const { list } = phrasings;
  const disabled = new Set(context.state.disabled);
  const limit = context.options.searchLimit;
  const hits = (await context.catalog.searchAsync(list, { limit: limit + disabled.size }))
    .filter((hit) => !disabled.has(hit.name))
    .slice(0, limit);
  const request = `'${list[0]}'${list.length > 1 ? ` (and ${list.length - 1} rewrite${list.length > 2 ? "s" : ""})` : ""}`;
  const tryNext =
    list.length > 1
      ? "Try other rewrites (a more specific tool, product or file format, or the field the task belongs to), or continue without a skill."
      : 'Try again with {"queries": [the request as written, then two or three rewrites naming the task, the tools or products, and the file formats a skill author would mention]}, or continue without a skill.';
  if (hits.length === 0) return { content: `No skill matches ${request}. ${tryNext}` };
  const lines = hits.map(
    (hit) =>
      `- ${hit.name} (score ${hit.score.toFixed(2)}${hit.confident ? ", confident fit" : ""}): ${hit.description}`,
  );
  if (hits.some((hit) => hit.confident))
    return { content: `Skills matching ${request}, best first:\n${lines.join("\n")}` };
  return {
    content:
      `No skill is a confident fit for ${request}. Closest matches, which may not fit (check each description against the request):\n` +
      `${lines.join("\n")}\n${tryNext}`,
  };
}
