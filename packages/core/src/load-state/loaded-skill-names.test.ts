import { describe, expect, it } from "vitest";
import { applyLoadEvents } from "./apply-load-events.js";
import { emptyLoadState } from "./empty-load-state.js";
import { loadedSkillNames } from "./loaded-skill-names.js";

describe("loadedSkillNames", () => {
  it("orders by loadedSeq, then name, and keeps a reloaded skill at its first position", () => {
    let { state } = applyLoadEvents(emptyLoadState(), [
      { type: "load", name: "zeta", mode: "turn", hash: "h", seq: 1 },
      { type: "load", name: "beta", mode: "turn", hash: "h", seq: 2 },
      { type: "load", name: "alpha", mode: "turn", hash: "h", seq: 2 },
    ]);
    ({ state } = applyLoadEvents(state, [{ type: "load", name: "zeta", mode: "turn", hash: "h2", seq: 3 }]));
    expect(loadedSkillNames(state)).toEqual(["zeta", "alpha", "beta"]);
  });

  it("returns an empty list for an empty state", () => {
    expect(loadedSkillNames(emptyLoadState())).toEqual([]);
  });
});
