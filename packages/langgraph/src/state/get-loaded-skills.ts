import type { LoadedSkillEntry } from "../internal/core.js";
import { readAgentSkillsState } from "./skills-state.js";

/**
 * Skills loaded for one agent in a graph state (or a `getState().values`), oldest load first.
 * @param state the graph state
 * @param agentId @default "default"
 * @example getLoadedSkills((await graph.getState(config)).values).map((entry) => entry.name)
 */
export function getLoadedSkills(state: unknown, agentId = "default"): LoadedSkillEntry[] {
  const loaded = readAgentSkillsState(state, agentId).load.loaded;
  return Object.values(loaded).sort((a, b) => a.loadedSeq - b.loadedSeq || (a.name < b.name ? -1 : 1));
}
