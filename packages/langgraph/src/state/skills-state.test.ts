import { describe, expect, it } from "vitest";
import {
  applyAgentSkillsUpdate,
  emptyAgentSkillsState,
  reduceSkillsState,
  type AgentSkillsUpdate,
  type SkillsStateUpdate,
  type SkillsStateValue,
} from "./skills-state.js";

const load = (name: string, seq: number) => ({ type: "load" as const, name, mode: "turn" as const, hash: "h", seq });

describe("skills channel reducer", () => {
  it("merges updates of different agents without touching each other", () => {
    const value = reduceSkillsState(reduceSkillsState({}, { a: { events: [load("x", 1)] } }), {
      b: { events: [load("y", 1)] },
    });
    expect(Object.keys(value.a!.load.loaded)).toEqual(["x"]);
    expect(Object.keys(value.b!.load.loaded)).toEqual(["y"]);
  });

  it("reads no cap: an update is plain events, and a field an old writer added is ignored", () => {
    const withCap = { a: { events: [load("x", 1), load("y", 1)], maxLoadedSkills: 1 } } as unknown as SkillsStateUpdate;
    expect(Object.keys(reduceSkillsState({}, withCap).a!.load.loaded)).toEqual(["x", "y"]);
  });

  it("gives the same state whatever order parallel updates of one step arrive in", () => {
    const one = { a: { events: [load("x", 1), { type: "unload" as const, name: "w", seq: 1 }] } };
    const two = { a: { events: [load("y", 1)] } };
    const base = reduceSkillsState({}, { a: { events: [load("w", 0)] } });
    const forward = reduceSkillsState(reduceSkillsState(base, one), two);
    const backward = reduceSkillsState(reduceSkillsState(base, two), one);
    expect(JSON.stringify(forward)).toBe(JSON.stringify(backward));
    expect(Object.keys(forward.a!.load.loaded).sort()).toEqual(["x", "y"]);
  });

  it("takes a whole agent state's loads when its sequence is the same or newer, never an older one", () => {
    const before = reduceSkillsState({}, { a: { events: [load("x", 1)] }, b: { events: [load("y", 1)] } });
    const stale = reduceSkillsState(before, { a: emptyAgentSkillsState() });
    expect(Object.keys(stale.a!.load.loaded)).toEqual(["x"]);
    const newer = reduceSkillsState({}, { a: { events: [load("z", 1), load("v", 2)] } }).a!;
    const after = reduceSkillsState(before, { a: newer });
    expect(Object.keys(after.a!.load.loaded).sort()).toEqual(["v", "z"]);
    expect(Object.keys(after.b!.load.loaded)).toEqual(["y"]);
  });

  it("keeps a disable that raised no sequence when a stale copy of the entry arrives, in either order", () => {
    const before = reduceSkillsState({}, { a: { events: [load("x", 1)] } });
    const disabled = reduceSkillsState(before, { a: { events: [], disable: ["w"] } }).a!;
    expect(disabled.load.seq).toBe(before.a!.load.seq);
    for (const writes of [
      [disabled, before.a!],
      [before.a!, disabled],
    ]) {
      const merged = writes.reduce<SkillsStateValue>((value, entry) => reduceSkillsState(value, { a: entry }), before);
      expect(merged.a!.disabled).toEqual(["w"]);
      expect(Object.keys(merged.a!.load.loaded)).toEqual(["x"]);
    }
    // An older whole entry loses its loads but not its disabled skills.
    const older = reduceSkillsState(before, { a: { load: { seq: 0, loaded: {} }, disabled: ["v"] } });
    expect(older.a!.disabled).toEqual(["v"]);
    expect(Object.keys(older.a!.load.loaded)).toEqual(["x"]);
  });

  it("reads and merges a value saved before per-field merging (an entry without journal, disabled names unsorted)", () => {
    const entry = { name: "x", mode: "session" as const, loadedSeq: 2, lastUsedSeq: 3, hash: "h", docs: ["a.md"] };
    const saved = JSON.parse(
      JSON.stringify({ a: { load: { seq: 3, loaded: { x: entry } }, disabled: ["z", "w"] } }),
    ) as SkillsStateValue;
    // A branch's stale copy, one that loads at the next seq, and one that disables: every change is kept.
    const writes: SkillsStateUpdate[] = [saved, { a: { events: [load("y", 4)] } }, { a: { disable: ["v"] } }];
    const results = [writes, [...writes].reverse()].map((order) =>
      order.reduce<SkillsStateValue>((value, write) => reduceSkillsState(value, write), saved),
    );
    expect(results[0]).toEqual(results[1]);
    expect(Object.keys(results[0]!.a!.load.loaded).sort()).toEqual(["x", "y"]);
    expect(results[0]!.a!.load.loaded.x).toEqual(entry);
    expect(results[0]!.a!.disabled).toEqual(["v", "w", "z"]);
  });

  it("unites disabled names", () => {
    const value = reduceSkillsState(reduceSkillsState({}, { a: { disable: ["x"] } }), { a: { disable: ["w", "x"] } });
    expect(value.a!.disabled).toEqual(["w", "x"]);
  });
  it("the engine's local view of an update is what the channel stores (one function applies both)", () => {
    const updates: AgentSkillsUpdate[] = [
      { events: [load("x", 1), load("y", 1), load("z", 1)] },
      { disable: ["w"], events: [{ type: "end-turn", seq: 2 }] },
      { disable: [] },
      { events: [load("v", 3), { type: "unload", name: "y", seq: 3 }] },
    ];
    let local = emptyAgentSkillsState();
    let channel = reduceSkillsState({}, undefined);
    for (const update of updates) {
      local = applyAgentSkillsUpdate(local, update);
      channel = reduceSkillsState(channel, { a: update });
      expect(local).toEqual(channel.a);
    }
    expect(Object.keys(local.load.loaded)).toEqual(["v"]);
    expect(local.disabled).toEqual(["w"]);
  });
});
