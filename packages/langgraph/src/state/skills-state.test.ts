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

  it("still applies the cap of an update written before 0.2 (field maxLoaded, from an old checkpoint's pending writes)", () => {
    const old = { a: { events: [load("x", 1), load("y", 1)], maxLoaded: 1 } } as unknown as SkillsStateUpdate;
    expect(Object.keys(reduceSkillsState({}, old).a!.load.loaded)).toHaveLength(1);
  });

  it("gives the same state whatever order parallel updates of one step arrive in", () => {
    const one = { a: { events: [load("x", 1)], maxLoadedSkills: 1 } };
    const two = { a: { events: [load("y", 1)], maxLoadedSkills: 1 } };
    const forward = reduceSkillsState(reduceSkillsState({}, one), two);
    const backward = reduceSkillsState(reduceSkillsState({}, two), one);
    expect(Object.keys(forward.a!.load.loaded)).toEqual(Object.keys(backward.a!.load.loaded));
    expect(Object.keys(forward.a!.load.loaded)).toHaveLength(1);
  });

  it("replaces an agent's entry when given a whole agent state", () => {
    const before = reduceSkillsState({}, { a: { events: [load("x", 1)] }, b: { events: [load("y", 1)] } });
    const after = reduceSkillsState(before, { a: emptyAgentSkillsState() });
    expect(after.a!.load.loaded).toEqual({});
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
      local = applyAgentUpdate(local, update, 2);
      channel = reduceSkillsState(channel, { a: { ...update, maxLoadedSkills: 2 } });
      expect(local).toEqual(channel.a);
    }
    expect(Object.keys(local.load.loaded)).toEqual(["v"]);
    expect(local.disabled).toEqual(["w"]);
  });
});
