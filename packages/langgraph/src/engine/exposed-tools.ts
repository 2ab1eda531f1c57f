import type { StructuredToolInterface } from "@langchain/core/tools";
import type { SkillMetadata } from "../internal/core.js";
import type { ResolvedSkillsRuntimeOptions } from "../options/skills-runtime-options.js";
import type { AgentSkillsState } from "../state/skills-state.js";
import type { SkillToolIndex } from "./skill-tool-index.js";

/** Skill-owned and hook tools shown to the model under the tool exposure mode (static: all, dispatcher: hooks only, dynamic: unlocked). */
export function exposedTools(options: ResolvedSkillsRuntimeOptions, state: AgentSkillsState, loaded: readonly SkillMetadata[], index: SkillToolIndex, threadId: string | undefined): StructuredToolInterface[] {
  const hookTools = options.hooks.flatMap((hook) => {
    if (options.toolExposure !== "dynamic") return hook.tools;
    const visible = new Set(hook.visibleTools({ loadedSkills: loaded, threadId }));
    return hook.tools.filter((tool) => visible.has(tool.name));
  });
  if (options.toolExposure === "static") return [...index.allOwned, ...hookTools];
  if (options.toolExposure === "dispatcher") return hookTools;
  const unlocked = new Map<string, StructuredToolInterface>();
  for (const name of Object.keys(state.load.loaded)) for (const tool of index.owned.get(name) ?? []) unlocked.set(tool.name, tool);
  return [...[...unlocked.values()].sort((a, b) => (a.name < b.name ? -1 : 1)), ...hookTools];
}
