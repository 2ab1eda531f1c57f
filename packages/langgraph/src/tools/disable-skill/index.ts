import type { StructuredToolInterface } from "@langchain/core/tools";
import { buildSkillNameTool } from "../skill-name-schema.js";
import { visibleSkillArg, type SkillsToolContext, type SkillsToolOutcome } from "../skills-tool-context.js";

/** Name of the opt-in tool that hides a skill for this agent on this thread. */
export const DISABLE_SKILL = "disable_skill";

/** The model-facing `disable_skill` tool (schema only; the interceptor runs it). */
export function buildDisableSkillTool(names: readonly string[], enumThreshold: number): StructuredToolInterface {
  return buildSkillNameTool(
    DISABLE_SKILL,
    "Stop using a skill for the rest of this conversation (it is unloaded and hidden for you only).",
    names,
    enumThreshold,
  );
}

/** Unloads and hides a skill in this agent's thread state only; the registry and other agents are untouched. */
export async function runDisableSkill(args: unknown, context: SkillsToolContext): Promise<SkillsToolOutcome> {
  const arg = visibleSkillArg(args, context);
  if ("error" in arg) return arg.error;
  const { name } = arg;
  const seq = context.state.load.seq + 1;
  return {
    content: `Skill '${name}' is disabled for the rest of this conversation.`,
    update: { events: context.state.load.loaded[name] ? [{ type: "unload", name, seq }] : [], disable: [name] },
    events: [{ type: "skill-disabled", agentId: context.agentId, skill: name }],
  };
}
