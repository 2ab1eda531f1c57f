import { describe, expect, it } from "vitest";
import { SkillgraphError } from "../errors/skillgraph-error.js";
import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import { applyLoadEvents } from "./apply-load-events.js";
import { emptyLoadState } from "./empty-load-state.js";
import type { LoadMode, SkillLoadEvent, SkillLoadState } from "./load-state-types.js";
import { nextSeq } from "./next-seq.js";

const load = (name: string, seq: number, mode: LoadMode = "turn", hash = `h-${name}`): SkillLoadEvent => ({
  type: "load",
  name,
  mode,
  hash,
  seq,
});

/** Applies steps one after another, each step's events stamped with nextSeq of the state before it. */
function run(steps: Array<(seq: number) => SkillLoadEvent[]>, options?: { maxLoadedSkills?: number }): SkillLoadState {
  let state = emptyLoadState();
  for (const step of steps) state = applyLoadEvents(state, step(nextSeq(state)), options).state;
  return state;
}

describe("applyLoadEvents", () => {
  it("creates an entry on load with loadedSeq and lastUsedSeq set to the event's seq", () => {
    const { state } = applyLoadEvents(emptyLoadState(), [load("pdf", 1, "session", "abc")]);
    expect(state.seq).toBe(1);
    expect(state.loaded).toEqual({
      pdf: { name: "pdf", mode: "session", loadedSeq: 1, lastUsedSeq: 1, hash: "abc", docs: [] },
    });
  });

  it("keeps loadedSeq and docs on a reload, takes the new hash and the stronger mode", () => {
    const state = run([
      (s) => [load("pdf", s, "session", "old")],
      (s) => [{ type: "doc", name: "pdf", path: "references/a.md", seq: s }],
      (s) => [load("pdf", s, "once", "new")],
    ]);
    expect(state.loaded.pdf).toEqual({
      name: "pdf",
      mode: "session",
      loadedSeq: 1,
      lastUsedSeq: 3,
      hash: "new",
      docs: ["references/a.md"],
    });
  });

  it("upgrades a turn skill to session when it is loaded again with session", () => {
    const state = run([
      (s) => [load("pdf", s, "turn")],
      (s) => [load("pdf", s, "session")],
      (s) => [{ type: "end-turn", seq: s }],
    ]);
    expect(state.loaded.pdf?.mode).toBe("session");
  });

  it("records doc reads as a sorted set and ignores docs of skills that are not loaded", () => {
    const state = run([
      (s) => [load("pdf", s)],
      (s) => [
        { type: "doc", name: "pdf", path: "z.md", seq: s },
        { type: "doc", name: "pdf", path: "a.md", seq: s },
        { type: "doc", name: "ghost", path: "a.md", seq: s },
      ],
      (s) => [{ type: "doc", name: "pdf", path: "a.md", seq: s }],
    ]);
    expect(state.loaded.pdf?.docs).toEqual(["a.md", "z.md"]);
    expect(state.loaded.ghost).toBeUndefined();
  });

  it("drops one doc or all of them with undoc before the step's doc reads, so clear + add in one step replaces", () => {
    const state = run([
      (s) => [
        load("pdf", s),
        { type: "doc", name: "pdf", path: "a.md", seq: s },
        { type: "doc", name: "pdf", path: "b.md", seq: s },
      ],
      (s) => [{ type: "undoc", name: "pdf", path: "a.md", seq: s }],
    ]);
    expect(state.loaded.pdf?.docs).toEqual(["b.md"]);
    const replaced = run([
      (s) => [load("pdf", s), { type: "doc", name: "pdf", path: "a.md", seq: s }],
      (s) => [
        { type: "doc", name: "pdf", path: "c.md", seq: s },
        { type: "undoc", name: "pdf", seq: s },
      ],
    ]);
    expect(replaced.loaded.pdf?.docs).toEqual(["c.md"]);
  });

  it("moves lastUsedSeq forward on touch and never backward", () => {
    const state = run([(s) => [load("a", s)], (s) => [load("b", s)], (s) => [{ type: "touch", name: "a", seq: s }]]);
    expect(state.loaded.a).toMatchObject({ loadedSeq: 1, lastUsedSeq: 3 });
    const stale = applyLoadEvents(state, [{ type: "touch", name: "a", seq: 1 }]).state;
    expect(stale.loaded.a?.lastUsedSeq).toBe(3);
  });

  it("removes a skill on unload", () => {
    const state = run([(s) => [load("a", s), load("b", s)], (s) => [{ type: "unload", name: "a", seq: s }]]);
    expect(Object.keys(state.loaded)).toEqual(["b"]);
  });

  it("marks once skills loaded before a model call consumed (body shown, tools kept) and leaves turn and session skills", () => {
    const before = run([(s) => [load("o", s, "once"), load("t", s, "turn"), load("s", s, "session")]]);
    const after = applyLoadEvents(before, [{ type: "model-call", seq: nextSeq(before) }]).state;
    expect(Object.keys(after.loaded).sort()).toEqual(["o", "s", "t"]);
    expect(after.loaded.o?.consumed).toBe(true);
    expect([after.loaded.s?.consumed, after.loaded.t?.consumed]).toEqual([undefined, undefined]);
    // end of the turn: gone; read again before that: shown again
    const ended = applyLoadEvents(after, [{ type: "end-turn", seq: nextSeq(after) }]).state;
    expect(Object.keys(ended.loaded).sort()).toEqual(["s"]);
    const reread = applyLoadEvents(after, [load("o", nextSeq(after), "once")]).state;
    expect(reread.loaded.o?.consumed).toBeUndefined();
  });

  it("keeps a once skill loaded in the same step as the model call (it was not loaded before that call)", () => {
    const state = run([(s) => [{ type: "model-call", seq: s }, load("o", s, "once")]]);
    expect(state.loaded.o?.mode).toBe("once");
  });

  it("drops turn and once skills at end-turn and keeps session skills", () => {
    const state = run([
      (s) => [load("o", s, "once"), load("t", s, "turn"), load("s", s, "session")],
      (s) => [{ type: "end-turn", seq: s }],
    ]);
    expect(Object.keys(state.loaded)).toEqual(["s"]);
  });

  it("drops everything on reset", () => {
    const state = run([(s) => [load("s", s, "session"), load("t", s)], (s) => [{ type: "reset", seq: s }]]);
    expect(state.loaded).toEqual({});
  });

  it("evicts the least recently used skill over the cap, ties broken by name, and reports it", () => {
    let state = run(
      [(s) => [load("c", s)], (s) => [load("b", s), load("a", s)], (s) => [{ type: "touch", name: "c", seq: s }]],
      { maxLoadedSkills: 3 },
    );
    const result = applyLoadEvents(state, [load("d", nextSeq(state))], { maxLoadedSkills: 3 });
    state = result.state;
    expect(result.evicted).toEqual(["a"]);
    expect(Object.keys(state.loaded)).toEqual(["b", "c", "d"]);
  });

  it("reports a skill evicted by the cap in the same update that loaded it", () => {
    const result = applyLoadEvents(emptyLoadState(), [load("b", 1), load("a", 1)], { maxLoadedSkills: 1 });
    expect(Object.keys(result.state.loaded)).toEqual(["b"]);
    expect(result.evicted).toEqual(["a"]);
  });

  it("does not mutate the input state", () => {
    const state = run([(s) => [load("a", s, "once")]]);
    const copy = structuredClone(state);
    applyLoadEvents(state, [
      { type: "model-call", seq: 2 },
      load("b", 2),
      { type: "doc", name: "a", path: "x.md", seq: 2 },
    ]);
    expect(state).toEqual(copy);
  });

  it("returns the same state object for an empty event list", () => {
    const state = run([(s) => [load("a", s)]]);
    expect(applyLoadEvents(state, []).state).toBe(state);
  });

  it("applies events of several steps in seq order within one call", () => {
    const { state } = applyLoadEvents(emptyLoadState(), [
      load("a", 1, "once"),
      { type: "model-call", seq: 2 },
      load("b", 3, "once"),
    ]);
    expect(state.seq).toBe(3);
    expect(Object.keys(state.loaded)).toEqual(["a", "b"]);
    expect([state.loaded.a?.consumed, state.loaded.b?.consumed]).toEqual([true, undefined]);
  });

  it("treats a stale event (seq below state.seq) as part of the current step", () => {
    const state = run([(s) => [load("a", s)], (s) => [load("b", s)]]);
    const { state: next } = applyLoadEvents(state, [load("c", 1)]);
    expect(next.seq).toBe(2);
    expect(next.loaded.c).toMatchObject({ loadedSeq: 2, lastUsedSeq: 2 });
  });

  it("throws InvalidOptionsError naming maxLoadedSkills when the cap is not a positive integer", () => {
    for (const maxLoadedSkills of [0, -1, 1.5, Number.NaN]) {
      expect(() => applyLoadEvents(emptyLoadState(), [], { maxLoadedSkills })).toThrow(InvalidOptionsError);
    }
    expect(() => applyLoadEvents(emptyLoadState(), [], { maxLoadedSkills: 0 })).toThrow(/maxLoadedSkills/);
  });

  it("throws an invalid-load-event error naming the field of a malformed event", () => {
    const bad = [
      { type: "load", name: "a", mode: "forever", hash: "h", seq: 1 },
      { type: "load", name: "", mode: "turn", hash: "h", seq: 1 },
      { type: "touch", name: "a", seq: -1 },
      { type: "doc", name: "a", path: "", seq: 1 },
      { type: "explode", seq: 1 },
    ] as unknown as SkillLoadEvent[];
    const fields = ["mode", "name", "seq", "path", "type"];
    bad.forEach((event, index) => {
      let caught: unknown;
      try {
        applyLoadEvents(emptyLoadState(), [event]);
      } catch (error) {
        caught = error;
      }
      expect(SkillgraphError.isInstance(caught) && caught.code).toBe("invalid-load-event");
      expect((caught as Error).message).toContain(`'${fields[index]}'`);
    });
  });
});

describe("the cap's name", () => {
  it("is maxLoadedSkills (the same name as the runtime option)", () => {
    const events = [load("a", 1), load("b", 1), load("c", 1)];
    expect(Object.keys(applyLoadEvents(emptyLoadState(), events, { maxLoadedSkills: 2 }).state.loaded)).toHaveLength(2);
  });
});
