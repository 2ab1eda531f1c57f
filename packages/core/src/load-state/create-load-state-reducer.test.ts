import { describe, expect, it } from "vitest";
import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import { SkillgraphError } from "../errors/skillgraph-error.js";
import { createLoadStateReducer } from "./create-load-state-reducer.js";
import { emptyLoadState } from "./empty-load-state.js";
import type { SkillLoadState } from "./load-state-types.js";

describe("createLoadStateReducer", () => {
  it("starts from an empty state when the channel has no value yet", () => {
    const reduce = createLoadStateReducer();
    const state = reduce(undefined, [{ type: "load", name: "pdf", mode: "turn", hash: "h", seq: 1 }]);
    expect(Object.keys(state.loaded)).toEqual(["pdf"]);
    expect(state.seq).toBe(1);
  });

  it("replaces the state when the update is a whole SkillLoadState (checkpoint restore)", () => {
    const reduce = createLoadStateReducer();
    const current = reduce(undefined, [{ type: "load", name: "a", mode: "turn", hash: "h", seq: 1 }]);
    const restored: SkillLoadState = {
      seq: 7,
      loaded: { b: { name: "b", mode: "session", loadedSeq: 3, lastUsedSeq: 6, hash: "x", docs: [] } },
    };
    expect(reduce(current, restored)).toBe(restored);
  });

  it("merges parallel updates after a restore as parallel updates of a fresh step", () => {
    const reduce = createLoadStateReducer();
    const restored: SkillLoadState = { seq: 7, loaded: {} };
    const one = reduce(reduce(restored, [{ type: "load", name: "a", mode: "turn", hash: "h", seq: 8 }]), [
      { type: "doc", name: "a", path: "r.md", seq: 8 },
    ]);
    const other = reduce(reduce(restored, [{ type: "doc", name: "a", path: "r.md", seq: 8 }]), [
      { type: "load", name: "a", mode: "turn", hash: "h", seq: 8 },
    ]);
    expect(one).toEqual(other);
    expect(one.loaded.a?.docs).toEqual(["r.md"]);
  });

  it("applies the cap given to the factory", () => {
    const reduce = createLoadStateReducer({ maxLoadedSkills: 1 });
    const state = reduce(emptyLoadState(), [
      { type: "load", name: "a", mode: "turn", hash: "h", seq: 1 },
      { type: "load", name: "b", mode: "turn", hash: "h", seq: 1 },
    ]);
    expect(Object.keys(state.loaded)).toEqual(["b"]);
  });

  it("checks maxLoadedSkills once, in the factory", () => {
    expect(() => createLoadStateReducer({ maxLoadedSkills: 0 })).toThrow(InvalidOptionsError);
  });

  it("throws invalid-load-state for an update that is neither events nor a state", () => {
    const reduce = createLoadStateReducer();
    let caught: unknown;
    try {
      reduce(emptyLoadState(), { loaded: {} } as unknown as SkillLoadState);
    } catch (error) {
      caught = error;
    }
    expect(SkillgraphError.isInstance(caught) && caught.code).toBe("invalid-load-state");
  });
});
