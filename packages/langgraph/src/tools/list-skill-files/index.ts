import type { StructuredToolInterface } from "@langchain/core/tools";
import { buildSkillNameTool } from "../skill-name-schema.js";
import { visibleSkillArg, type SkillsToolContext, type SkillsToolOutcome } from "../skills-tool-context.js";

/** Name of the file-listing tool. */
export const LIST_SKILL_FILES = "list_skill_files";

/** The model-facing `list_skill_files` tool (schema only; the interceptor runs it). */
export function buildListSkillFilesTool(names: readonly string[], enumThreshold: number): StructuredToolInterface {
  return buildSkillNameTool(
    LIST_SKILL_FILES,
    "List every file inside a skill folder (paths relative to the skill, with sizes).",
    names,
    enumThreshold,
  );
}

/** Lists a skill's files (SKILL.md excluded), one per line. */
export async function runListSkillFiles(args: unknown, context: SkillsToolContext): Promise<SkillsToolOutcome> {
  const arg = visibleSkillArg(args, context);
  if ("error" in arg) return arg.error;
  const { name } = arg;
  const files = await context.catalog.listFiles(name);
  if (files.length === 0) return { content: `Skill '${name}' has no files besides SKILL.md.` };
  return {
    content: [`Files of skill '${name}':`, ...files.map((file) => `- ${file.path} (${file.size} bytes)`)].join("\n"),
  };
}
