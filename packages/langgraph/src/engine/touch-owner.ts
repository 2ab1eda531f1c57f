import type { AgentSkillsState, AgentSkillsUpdate } from "../state/skills-state.js";

/** Load events recording that a loaded skill's tool was used (keeps it recent for the LRU cap). */
export function touchOwner(owner: string | undefined, state: AgentSkillsState): AgentSkillsUpdate | undefined {
  if (!owner || !state.load.loaded[owner]) return undefined;
  return { events: [{ type: "touch", name: owner, seq: state.load.seq + 1 }] };
}
