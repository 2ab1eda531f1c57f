import type { SkillsEvent } from "../events/skills-event.js";
import type { AgentSkillsState, AgentSkillsUpdate } from "../state/skills-state.js";

/** State changes and trace events computed before a model call (turn end, drift). */
export interface PreparedState {
  state: AgentSkillsState;
  update: AgentSkillsUpdate | undefined;
  events: SkillsEvent[];
}
