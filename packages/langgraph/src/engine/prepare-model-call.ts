import type { BaseMessage } from "@langchain/core/messages";
import type { SkillCatalog, SkillLoadEvent } from "../internal/core.js";
import type { ResolvedSkillsRuntimeOptions } from "../options/skills-runtime-options.js";
import type { AgentSkillsState } from "../state/skills-state.js";
import { applyAgentUpdate } from "./apply-agent-update.js";
import { driftEvents } from "./drift-events.js";
import type { PreparedState } from "./prepared-state.js";
import { unloadedEvents } from "./unload-events.js";

/** Before a model call: end the turn when a new user message arrived, then settle drift of loaded skills. */
export function prepareModelCall(state: AgentSkillsState, messages: readonly BaseMessage[], catalog: SkillCatalog, options: ResolvedSkillsRuntimeOptions, agentId: string): PreparedState {
  const events: SkillLoadEvent[] = [];
  const seq = state.load.seq + 1;
  const last = messages[messages.length - 1];
  const loadedNames = Object.keys(state.load.loaded);
  if (last && last.getType() === "human" && loadedNames.some((name) => state.load.loaded[name]!.mode !== "session")) events.push({ type: "end-turn", seq });
  const drift = driftEvents(state, catalog, options.onDrift, agentId, seq);
  events.push(...drift.events);
  const trace = drift.trace;
  if (events.length === 0) return { state, update: undefined, events: trace };
  const next = applyAgentUpdate(state, { events }, options.maxLoadedSkills);
  trace.push(...unloadedEvents(state, next, agentId, last?.getType() === "human" ? "turn-ended" : "removed"));
  return { state: next, update: { events, maxLoaded: options.maxLoadedSkills }, events: trace };
}
