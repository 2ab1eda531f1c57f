import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { z } from "zod";
import { runsInInterceptor } from "../skill-name-schema.js";
import { stringArg, toolError, type SkillsToolContext, type SkillsToolOutcome } from "../skills-tool-context.js";

/** Name of the search tool. */
export const SEARCH_SKILLS = "search_skills";

/** The model-facing `search_skills` tool (schema only; the interceptor runs it). */
export function buildSearchSkillsTool(): StructuredToolInterface {
  return tool(runsInInterceptor(SEARCH_SKILLS), {
    name: SEARCH_SKILLS,
    description:
      "Search the available skills by what you need to do; returns the best matches, best first. Load one with read_skill.",
    schema: z.object({ query: z.string().describe("What you need to do, in a few words") }),
  });
}

/**
 * Ranked search over this agent's visible skills, disabled skills left out. Uses the registry's `searchAsync`, which
 * fuses the lexical ranking with the registry's `embeddings` model when one is configured (lexical alone otherwise).
 */
export async function runSearchSkills(args: unknown, context: SkillsToolContext): Promise<SkillsToolOutcome> {
  const query = stringArg(args, "query", "q", "text");
  if (!query) return toolError('Missing the query: pass {"query": "<what you need to do>"}.');
  const disabled = new Set(context.state.disabled);
  const limit = context.options.searchLimit;
  const hits = (await context.catalog.searchAsync(query, { limit: limit + disabled.size }))
    .filter((hit) => !disabled.has(hit.name))
    .slice(0, limit);
  if (hits.length === 0) return { content: `No skill matches '${query}'.` };
  const lines = hits.map((hit) => `- ${hit.name} (score ${hit.score.toFixed(2)}): ${hit.description}`);
  const note = hits.some((hit) => hit.confident)
    ? ""
    : "\nNo match is a confident fit; proceed without a skill if none applies.";
  return { content: `Skills matching '${query}', best first:\n${lines.join("\n")}${note}` };
}
