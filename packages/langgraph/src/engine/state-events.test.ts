import { describe, expect, it } from "vitest";
import { engineContext } from "../__fixtures__/engine-context.js";
import { afterModelCall, capEvictions, endTurn, mergeAgentUpdates } from "./state-events.js";

describe("state-events", () => {
  it("merges updates of one agent: events in order, disabled names united", () => {
    expect(mergeAgentUpdates(undefined, undefined)).toBeUndefined();
    const merged = mergeAgentUpdates(
      { events: [{ type: "touch", name: "a", seq: 1 }] },
      { events: [{ type: "touch", name: "b", seq: 1 }], disable: ["c"] },
    );
    expect(merged).toEqual({
      events: [
        { type: "touch", name: "a", seq: 1 },
        { type: "touch", name: "b", seq: 1 },
      ],
      disable: ["c"],
    });
  });

  it("drops turn skills at the end of a turn (session ones stay) and traces it", async () => {
    const { load } = await engineContext();
    const state = load(["notes"]);
    const turn = {
      ...state,
      load: { ...state.load, loaded: { notes: { ...state.load.loaded.notes!, mode: "turn" as const } } },
    };
    const ended = endTurn(turn, "default");
    expect(ended.state.load.loaded).toEqual({});
    expect(ended.events).toContainEqual(
      expect.objectContaining({ type: "skill-unloaded", skill: "notes", reason: "turn-ended" }),
    );
    expect(Object.keys(endTurn(state, "default").state.load.loaded)).toEqual(["notes"]);
  });

  it("writes nothing at the end of a turn when only session skills are loaded", async () => {
    const { load } = await engineContext();
    const state = load(["notes"]);
    const session = {
      ...state,
      load: { ...state.load, loaded: { notes: { ...state.load.loaded.notes!, mode: "session" as const } } },
    };
    expect(endTurn(session, "default")).toEqual({ state: session, update: undefined, events: [] });
  });

  it("records a model call only while a once skill is loaded", async () => {
    const { load } = await engineContext();
    expect(afterModelCall(load(["notes"]), "default").update).toBeUndefined();
  });
});

describe("capEvictions", () => {
  it("picks the least recently used beyond the cap, never a kept name", async () => {
    const { load } = await engineContext();
    const state = load(["notes", "weather", "pdf-tools"]);
    const used = {
      ...state,
      load: {
        ...state.load,
        loaded: {
          ...state.load.loaded,
          notes: { ...state.load.loaded.notes!, lastUsedSeq: 9 },
          weather: { ...state.load.loaded.weather!, lastUsedSeq: 2 },
          "pdf-tools": { ...state.load.loaded["pdf-tools"]!, lastUsedSeq: 1 },
        },
      },
    };
    expect(capEvictions(used, 3)).toEqual([]);
    expect(capEvictions(used, 2)).toEqual(["pdf-tools"]);
    expect(capEvictions(used, 1)).toEqual(["pdf-tools", "weather"]);
    expect(capEvictions(used, 2, ["pdf-tools"])).toEqual(["weather"]);
  });
});
