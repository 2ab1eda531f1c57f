import { describe, expect, it } from "vitest";
import { applyAgentUpdate } from "../engine/state-events.js";
import {
  emptyAgentSkillsState,
  reduceSkillsState,
  type AgentSkillsUpdate,
  type SkillsStateUpdate,
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

  it("replaces an agent's entry with a whole agent state of the same or a newer sequence, never an older one", () => {
    const before = reduceSkillsState({}, { a: { events: [load("x", 1)] }, b: { events: [load("y", 1)] } });
    const stale = reduceSkillsState(before, { a: emptyAgentSkillsState() });
    expect(Object.keys(stale.a!.load.loaded)).toEqual(["x"]);
    const newer = reduceSkillsState({}, { a: { events: [load("z", 1), load("v", 2)] } }).a!;
    const after = reduceSkillsState(before, { a: newer });
    expect(Object.keys(after.a!.load.loaded).sort()).toEqual(["v", "z"]);
    expect(Object.keys(after.b!.load.loaded)).toEqual(["y"]);
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
      local = applyAgentUpdate(local, update);
      channel = reduceSkillsState(channel, { a: update });
      expect(local).toEqual(channel.a);
    }
    expect(Object.keys(local.load.loaded)).toEqual(["v"]);
    expect(local.disabled).toEqual(["w"]);
  });
});
