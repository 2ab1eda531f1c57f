import type { SkillLoadState } from "./load-state-types.js";

/** A load state with nothing loaded, at seq 0. */
export function emptyLoadState(): SkillLoadState {
  return { seq: 0, loaded: {} };
}
