import type { SkillCatalog, SkillMetadata } from "../internal/core.js";
import type { AgentSkillsState } from "../state/skills-state.js";

/** Metadata of the loaded skills still in `catalog`, sorted by name. */
export function loadedMetadata(state: AgentSkillsState, catalog: SkillCatalog): SkillMetadata[] {
  const result: SkillMetadata[] = [];
  for (const name of Object.keys(state.load.loaded).sort()) {
    const skill = catalog.get(name);
    if (skill) result.push(skill);
  }
  return result;
}
