import type { SkillLoadEvent } from "../internal/core.js";
import type { AgentSkillsState } from "../state/skills-state.js";
import { applyAgentUpdate } from "./apply-agent-update.js";
import type { PreparedState } from "./prepared-state.js";
import { unloadedEvents } from "./unload-events.js";

/** After a model call: count it when a `once` skill is loaded (consumes it); otherwise nothing to record, no channel write. */
export function afterModelCall(state: AgentSkillsState, maxLoaded: number, agentId: string): PreparedState {
  if (!Object.values(state.load.loaded).some((entry) => entry.mode === "once")) return { state, update: undefined, events: [] };
  const events: SkillLoadEvent[] = [{ type: "model-call", seq: state.load.seq + 1 }];
  const next = applyAgentUpdate(state, { events }, maxLoaded);
  return { state: next, update: { events, maxLoaded }, events: unloadedEvents(state, next, agentId, "once-consumed") };
}

/** The turn is over (the agent answered): drop `turn` and `once` skills. */
export function endTurn(state: AgentSkillsState, maxLoaded: number, agentId: string): PreparedState {
  const events: SkillLoadEvent[] = [{ type: "end-turn", seq: state.load.seq + 1 }];
  const next = applyAgentUpdate(state, { events }, maxLoaded);
  return { state: next, update: { events, maxLoaded }, events: unloadedEvents(state, next, agentId, "turn-ended") };
}
