import { compareCodeUnits } from "./canonical-events.js";
import type { LoadedSkillDrift, SkillLoadState } from "./load-state-types.js";

/**
 * Loaded skills whose SKILL.md changed (other hash) or is gone since they were loaded, sorted by name.
 *
 * @param state the load state (e.g. restored from a checkpoint)
 * @param current looks a skill up now, e.g. `(name) => registry.get(name)`
 * @example
 * detectLoadedSkillDrift(state, (name) => registry.get(name)); // [{ name: "pdf", kind: "changed", recordedHash: "ab…", currentHash: "cd…" }]
 */
export function detectLoadedSkillDrift(
  state: SkillLoadState,
  current: (name: string) => { hash: string } | undefined,
): LoadedSkillDrift[] {
  const drift: LoadedSkillDrift[] = [];
  for (const entry of Object.values(state.loaded).sort((a, b) => compareCodeUnits(a.name, b.name))) {
    const now = current(entry.name);
    if (!now) drift.push({ name: entry.name, kind: "removed", recordedHash: entry.hash });
    else if (now.hash !== entry.hash)
      drift.push({ name: entry.name, kind: "changed", recordedHash: entry.hash, currentHash: now.hash });
  }
  return drift;
}
