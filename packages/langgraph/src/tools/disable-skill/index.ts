import type { StructuredToolInterface } from "@langchain/core/tools";
import { buildSkillNameTool } from "../skill-name-schema.js";
import { visibleSkillArg, type SkillsToolContext, type SkillsToolOutcome } from "../skills-tool-context.js";

/** Name of the opt-in tool that hides a skill for this agent on this thread. */
export const DISABLE_SKILL = "disable_skill";

/** The model-facing `disable_skill` tool (schema only; the interceptor runs it). */
export function buildDisableSkillTool(
  names: readonly string[],
  enumThreshold: number,
  scope: "thread" | "app" = "thread",
): StructuredToolInterface {
  return buildSkillNameTool(
    DISABLE_SKILL,
    scope === "app"
      ? "Disable a skill for the whole application (it is unloaded and hidden for every agent and conversation)."
      : "Stop using a skill for the rest of this conversation (it is unloaded and hidden for you only).",
    names,
    enumThreshold,
  );
}

/**
 * Unloads and hides a skill: in this agent's thread state only (the registry and other agents are untouched), or,
 * under `allowDisableSkill: "app"`, in the app's `disabledSkills` set (every agent and thread given that set).
 */
export async function runDisableSkill(args: unknown, context: SkillsToolContext): Promise<SkillsToolOutcome> {
  const arg = visibleSkillArg(args, context);
  if ("error" in arg) return arg.error;
  const { name } = arg;
  const seq = context.state.load.seq + 1;
  const unload = context.state.load.loaded[name] ? [{ type: "unload" as const, name, seq }] : [];
  if (context.options.disableScope === "app") {
    context.options.disabledSkills.add(name);
    return {
      content: `Skill '${name}' is disabled for every agent and conversation of this application.`,
      update: { events: unload },
      events: [{ type: "skill-disabled", agentId: context.agentId, skill: name }],
    };
  }
  return {
    content: `Skill '${name}' is disabled for the rest of this conversation.`,
    update: { events: unload, disable: [name] },
    events: [{ type: "skill-disabled", agentId: context.agentId, skill: name }],
  };
}
