import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { z } from "zod";
import { SkillgraphError } from "../internal/core.js";

/** Skill-name parameter: a zod enum of the visible names when there are few (at most `threshold`), else a string. */
export function skillNameSchema(names: readonly string[], threshold: number): z.ZodType<string> {
  const description = "Name of the skill, exactly as listed in the system prompt.";
  if (names.length > 0 && names.length <= threshold)
    return z.enum(names as [string, ...string[]]).describe(description);
  return z.string().describe(description);
}

/** The body of every model-facing skills tool: they run inside the interceptor, never on their own. */
export function runsInInterceptor(name: string): () => never {
  return () => {
    throw new SkillgraphError({
      code: "tool-outside-interceptor",
      message: `${name} runs inside the skills interceptor: give the graph interceptor.toolNode(...) (or use createSkillsMiddleware), not a plain ToolNode`,
    });
  };
}

/** A model-facing tool whose only parameter is a skill name (schema only; the interceptor runs it). */
export function buildSkillNameTool(
  name: string,
  description: string,
  names: readonly string[],
  enumThreshold: number,
): StructuredToolInterface {
  return tool(runsInInterceptor(name), {
    name,
    description,
    schema: z.object({ name: skillNameSchema(names, enumThreshold) }),
  });
}
