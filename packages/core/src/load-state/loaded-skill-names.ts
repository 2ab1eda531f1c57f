import { compareCodeUnits } from "./canonical-events.js";
import type { SkillLoadState } from "./load-state-types.js";

/** Names of the loaded skills, sorted by loadedSeq then name: a stable order to materialise bodies in. */
export function loadedSkillNames(state: SkillLoadState): string[] {
  return Object.values(state.loaded)
    .sort((a, b) => a.loadedSeq - b.loadedSeq || compareCodeUnits(a.name, b.name))
    .map((entry) => entry.name);
}
