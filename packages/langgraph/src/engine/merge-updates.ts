import type { AgentSkillsUpdate } from "../state/skills-state.js";

/** Joins several updates of one agent into one (events in order, disabled names united). */
export function mergeAgentUpdates(...updates: ReadonlyArray<AgentSkillsUpdate | undefined>): AgentSkillsUpdate | undefined {
  const present = updates.filter((update): update is AgentSkillsUpdate => update !== undefined);
  if (present.length === 0) return undefined;
  const events = present.flatMap((update) => update.events ?? []);
  const disable = present.flatMap((update) => update.disable ?? []);
  const maxLoaded = present.find((update) => update.maxLoaded !== undefined)?.maxLoaded;
  return { events, ...(disable.length > 0 ? { disable } : {}), ...(maxLoaded !== undefined ? { maxLoaded } : {}) };
}
