import type { SkillsEvent } from "../events/skills-event.js";
import type { AgentSkillsState } from "../state/skills-state.js";

/** Trace events for skills present before an update and gone after it. */
export function unloadedEvents(before: AgentSkillsState, after: AgentSkillsState, agentId: string, reason: "removed" | "turn-ended" | "once-consumed"): SkillsEvent[] {
  return Object.keys(before.load.loaded)
    .filter((name) => !after.load.loaded[name])
    .map((skill) => ({ type: "skill-unloaded" as const, agentId, skill, reason }));
}

/** Trace events for skills the LRU cap evicted. */
export function evictionEvents(before: AgentSkillsState, after: AgentSkillsState, agentId: string): SkillsEvent[] {
  return Object.keys(before.load.loaded)
    .filter((name) => !after.load.loaded[name])
    .map((skill) => ({ type: "skill-evicted" as const, agentId, skill, reason: "cap" as const }));
}
