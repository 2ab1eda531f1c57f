import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { z } from "zod";
import { SkillgraphError } from "../../internal/core.js";
import { runsInInterceptor, skillNameSchema } from "../skill-name-schema.js";
import {
  stringArg,
  toolError,
  unknownSkill,
  type SkillsToolContext,
  type SkillsToolOutcome,
} from "../skills-tool-context.js";

/** Name of the level-3 tool. */
export const READ_SKILL_FILE = "read_skill_file";

/** The model-facing `read_skill_file` tool (schema only; the interceptor runs it). */
export function buildReadSkillFileTool(names: readonly string[], enumThreshold: number): StructuredToolInterface {
  return tool(runsInInterceptor(READ_SKILL_FILE), {
    name: READ_SKILL_FILE,
    description:
      "Read one file of a skill (a reference, template or script listed by read_skill), path relative to the skill folder.",
    schema: z.object({
      name: skillNameSchema(names, enumThreshold),
      path: z.string().describe("Path relative to the skill folder, e.g. references/api.md"),
    }),
  });
}

/** Reads a skill file, confined to the skill folder, size-capped, binary refused; records the read in state when the skill is loaded. */
export async function runReadSkillFile(args: unknown, context: SkillsToolContext): Promise<SkillsToolOutcome> {
  const name = stringArg(args, "name", "skill", "skill_name");
  const path = stringArg(args, "path", "file", "file_path");
  if (!name || context.state.disabled.includes(name) || !context.catalog.has(name)) return unknownSkill(context, name);
  if (!path)
    return toolError(`Missing the file path: pass {"name": "${name}", "path": "<path relative to the skill folder>"}.`);
  try {
    const file = await context.catalog.readFile(name, path, { maxBytes: context.options.maxResourceBytes });
    // Sources differ in enforcing maxBytes (code-defined files are held in memory): check it here too.
    if (file.size > context.options.maxResourceBytes)
      return toolError(
        `Cannot read '${path}' of skill '${name}': ${file.size} bytes is over the ${context.options.maxResourceBytes}-byte limit.`,
      );
    const loaded = context.state.load.loaded[name] !== undefined;
    const seq = context.state.load.seq + 1;
    // A file of a loaded skill is stored as a stub, filled in per request while the skill is loaded and the file in
    // its docs; when the skill unloads it is dropped like the body. A file of a skill that is not loaded stays inline.
    return {
      content: loaded ? `File '${file.path}' of skill '${name}' (${file.size} bytes).` : file.content,
      ...(loaded
        ? { artifact: { kind: "skill-file" as const, agentId: context.agentId, skill: name, path: file.path } }
        : {}),
      update: loaded ? { events: [{ type: "doc", name, path: file.path, seq }] } : undefined,
      events: [{ type: "skill-file-read", agentId: context.agentId, skill: name, path: file.path }],
    };
  } catch (error) {
    if (SkillgraphError.isInstance(error))
      return toolError(`Cannot read '${path}' of skill '${name}': ${error.message}`);
    throw error;
  }
}
