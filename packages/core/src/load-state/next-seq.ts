import type { SkillLoadState } from "./load-state-types.js";

/** The seq a tool call should put on its events: one more than the state it read. Parallel calls of a step get the same. */
export function nextSeq(state: SkillLoadState | undefined): number {
  return (state?.seq ?? 0) + 1;
}
