import { applyLoadEvents } from "../internal/core.js";
import type { AgentSkillsState, AgentSkillsUpdate } from "../state/skills-state.js";

/** Applies an update locally (what the channel reducer will do). */
export function applyAgentUpdate(state: AgentSkillsState, update: AgentSkillsUpdate, maxLoaded: number): AgentSkillsState {
  const load = update.events && update.events.length > 0 ? applyLoadEvents(state.load, update.events, { maxLoadedSkills: maxLoaded }).state : state.load;
  const disabled = update.disable ? [...new Set([...state.disabled, ...update.disable])].sort() : state.disabled;
  return { load, disabled };
}
