import { SkillDriftError, detectLoadedSkillDrift } from "../internal/core.js";
import type { SkillCatalog, SkillLoadEvent } from "../internal/core.js";
import type { SkillsEvent } from "../events/skills-event.js";
import type { DriftPolicy } from "../options/skills-runtime-options.js";
import type { AgentSkillsState } from "../state/skills-state.js";

/** Load events and trace events settling loaded skills that changed or vanished in the catalog; throws under `onDrift: "fail"`. */
export function driftEvents(state: AgentSkillsState, catalog: SkillCatalog, onDrift: DriftPolicy, agentId: string, seq: number): { events: SkillLoadEvent[]; trace: SkillsEvent[] } {
  const events: SkillLoadEvent[] = [];
  const trace: SkillsEvent[] = [];
  const drifts = detectLoadedSkillDrift(state.load, (name) => catalog.get(name));
  for (const drift of drifts) {
    if (onDrift === "fail") throw new SkillDriftError({ drift: [drift], agentId });
    if (drift.kind === "removed") {
      events.push({ type: "unload", name: drift.name, seq });
      trace.push({ type: "skill-drift", agentId, skill: drift.name, kind: "removed", action: "reload" });
    } else if (onDrift === "reload") {
      const entry = state.load.loaded[drift.name]!;
      events.push({ type: "load", name: drift.name, mode: entry.mode, hash: drift.currentHash!, seq });
      trace.push({ type: "skill-drift", agentId, skill: drift.name, kind: "changed", action: "reload" });
    }
  }
  return { events, trace };
}
