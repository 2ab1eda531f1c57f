import type { StructuredToolInterface } from "@langchain/core/tools";
import type { SkillCatalog } from "../internal/core.js";
import type { ResolvedSkillsRuntimeOptions } from "../options/skills-runtime-options.js";
import type { AgentSkillsState, AgentSkillsUpdate } from "../state/skills-state.js";
import type { SkillsEvent } from "../events/skills-event.js";

/** What a model-facing skills tool runs against: this agent's catalog view and state. */
export interface SkillsToolContext {
  catalog: SkillCatalog;
  agentId: string;
  state: AgentSkillsState;
  options: ResolvedSkillsRuntimeOptions;
  /** Tools a skill unlocks (resolved `allowed-tools` plus `skillTools`). */
  ownedTools(skill: string): readonly StructuredToolInterface[];
}

/** Marks a stored read_skill result: the body is substituted into the outgoing request, never kept in state. */
export interface SkillBodyArtifact {
  kind: "skill-body";
  agentId: string;
  skill: string;
  /** Hash of SKILL.md when it was read. */
  hash: string;
  /** Reference files selected with this load (`docs` / `include_all_docs`), shown with the body while selected. */
  docs?: string[];
}

/** Marks a stored read_skill_file result of a loaded skill: the content is filled in per request while the skill is loaded. */
export interface SkillFileArtifact {
  kind: "skill-file";
  agentId: string;
  skill: string;
  path: string;
}

/** What a skills tool call produced: the ToolMessage content and the state change. */
export interface SkillsToolOutcome {
  content: string;
  status?: "success" | "error";
  artifact?: SkillBodyArtifact | SkillFileArtifact;
  update?: AgentSkillsUpdate;
  events?: SkillsEvent[];
}

/** An error outcome (the model sees `content`, nothing changes). */
export function toolError(content: string): SkillsToolOutcome {
  return { content, status: "error" };
}

/** Reads a string argument by any of its accepted names (models misname parameters). */
export function stringArg(args: unknown, ...keys: string[]): string | undefined {
  if (typeof args === "string") return args;
  if (!args || typeof args !== "object") return undefined;
  for (const key of keys) {
    const value = (args as Record<string, unknown>)[key];
    if (typeof value === "string" && value.trim().length > 0) return value.trim();
  }
  return undefined;
}

/** Explains an unknown skill name, with close matches from search. */
export function unknownSkill(context: SkillsToolContext, name: string | undefined): SkillsToolOutcome {
  if (!name)
    return toolError(
      'Missing the skill name: pass {"name": "<skill name>"} (see the skills list in the system prompt, or use search_skills).',
    );
  if (context.state.disabled.includes(name))
    return toolError(`Skill '${name}' is disabled for this agent on this thread.`);
  if (context.options.disabledSkills.has(name)) return toolError(`Skill '${name}' is disabled by the application.`);
  const hits = context.catalog.search(name, { limit: 3 }).map((hit) => hit.name);
  const hint = hits.length > 0 ? ` Did you mean: ${hits.join(", ")}?` : " Use search_skills to find one.";
  return toolError(`Skill '${name}' not found.${hint}`);
}

/** The visible, enabled skill a call names (`name`, or the aliases models use), or the error outcome to answer with. */
export function visibleSkillArg(
  args: unknown,
  context: SkillsToolContext,
): { name: string } | { error: SkillsToolOutcome } {
  const name = stringArg(args, "name", "skill", "skill_name");
  if (!name || context.state.disabled.includes(name) || !context.catalog.has(name))
    return { error: unknownSkill(context, name) };
  return { name };
}
