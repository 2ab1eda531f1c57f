import { describe, expect, it } from "vitest";
import { engineContext } from "../__fixtures__/engine-context.js";
import { emptyAgentSkillsState } from "../state/skills-state.js";
import { blockedMessage, runSkillsTool, touchOwner } from "./tool-running.js";

describe("tool-running", () => {
  it("loads with read_skill and answers a repeat read with the body marker again and a touch", async () => {
    const { registry, context, load } = await engineContext();
    const first = await runSkillsTool(
      context,
      { name: "read_skill", args: { name: "notes" } },
      emptyAgentSkillsState(),
      registry,
    );
    expect(first.update?.events?.[0]).toMatchObject({ type: "load", name: "notes" });
    const again = await runSkillsTool(
      context,
      { name: "read_skill", args: { name: "notes" } },
      load(["notes"]),
      registry,
    );
    expect(again.artifact).toMatchObject({ kind: "skill-body", skill: "notes" });
    expect(again.update?.events).toEqual([{ type: "touch", name: "notes", seq: 2 }]);
  });

  it("asks the eviction policy which skill leaves when a load goes over the cap", async () => {
    const { registry, context, load } = await engineContext({
      maxLoadedSkills: 2,
      evictionPolicy: ({ loaded }) => [loaded[1]!.name, "not-loaded"],
    });
    const state = load(["notes", "weather"]);
    const outcome = await runSkillsTool(context, { name: "read_skill", args: { name: "pdf-tools" } }, state, registry);
    expect(
      outcome.update?.events?.filter((event) => event.type === "unload").map((event) => "name" in event && event.name),
    ).toEqual([[...Object.keys(state.load.loaded)].sort()[1]]);
  });

  it("records a touch for the owner of a tool that ran, and answers blocked calls with an error ToolMessage", async () => {
    const { load } = await engineContext();
    expect(touchOwner("notes", load(["notes"]))).toEqual({ events: [{ type: "touch", name: "notes", seq: 2 }] });
    expect(touchOwner(undefined, load(["notes"]))).toBeUndefined();
    expect(blockedMessage("no", { id: "c", name: "x" }).status).toBe("error");
  });
});
