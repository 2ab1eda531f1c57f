import { describe, expect, it } from "vitest";
import { applyLoadEvents } from "./apply-load-events.js";
import { detectLoadedSkillDrift } from "./detect-loaded-skill-drift.js";
import { emptyLoadState } from "./empty-load-state.js";

describe("detectLoadedSkillDrift", () => {
  const { state } = applyLoadEvents(emptyLoadState(), [
    { type: "load", name: "same", mode: "session", hash: "h1", seq: 1 },
    { type: "load", name: "edited", mode: "session", hash: "h2", seq: 1 },
    { type: "load", name: "deleted", mode: "session", hash: "h3", seq: 1 },
  ]);
  const now: Record<string, { hash: string }> = { same: { hash: "h1" }, edited: { hash: "h2-new" } };

  it("reports changed and removed skills sorted by name, and nothing for unchanged ones", () => {
    expect(detectLoadedSkillDrift(state, (name) => now[name])).toEqual([
      { name: "deleted", kind: "removed", recordedHash: "h3" },
      { name: "edited", kind: "changed", recordedHash: "h2", currentHash: "h2-new" },
    ]);
  });

  it("reports every skill as removed when none exists now, and nothing when every hash matches", () => {
    expect(detectLoadedSkillDrift(state, () => undefined).length).toBe(3);
    expect(detectLoadedSkillDrift(state, (name) => ({ hash: state.loaded[name]?.hash ?? "" }))).toEqual([]);
  });
});
