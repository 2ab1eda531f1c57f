import { describe, expect, it } from "vitest";
import { createTestRegistry } from "../../__fixtures__/test-skills.js";
import { toolContext } from "../../__fixtures__/tool-context.js";
import { runDisableSkill } from "./index.js";

describe("disable_skill", () => {
  it("unloads a loaded skill and disables it in this agent's state only", async () => {
    const state = {
      load: {
        seq: 4,
        loaded: { notes: { name: "notes", mode: "turn" as const, loadedSeq: 1, lastUsedSeq: 1, hash: "h", docs: [] } },
      },
      disabled: [],
    };
    const outcome = await runDisableSkill(
      { name: "notes" },
      toolContext(await createTestRegistry(), { allowDisableSkill: true }, state),
    );
    expect(outcome.update).toEqual({ events: [{ type: "unload", name: "notes", seq: 5 }], disable: ["notes"] });
    expect(outcome.events).toEqual([{ type: "skill-disabled", agentId: "test", skill: "notes" }]);
  });

  it("refuses an unknown skill", async () => {
    expect((await runDisableSkill({ name: "nope" }, toolContext(await createTestRegistry()))).status).toBe("error");
  });
});
