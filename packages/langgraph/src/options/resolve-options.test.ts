import { describe, expect, it } from "vitest";
import { SkillgraphError } from "@skillgraph/core";
import { createTestRegistry } from "../__fixtures__/test-skills.js";
import { resolveOptions } from "./resolve-options.js";

describe("resolveOptions", () => {
  it("fills in the documented defaults", async () => {
    const resolved = resolveOptions({ skills: await createTestRegistry() });
    expect(resolved).toMatchObject({
      agentId: "default",
      toolExposure: "dynamic",
      bodyPlacement: "tool-result",
      loadMode: "turn",
      maxLoadedSkills: 8,
      enumThreshold: 50,
      onDrift: "reload",
      restrictTools: false,
      allowDisableSkill: false,
    });
  });

  it.each([
    [{ toolExposure: "lazy" }, "toolExposure"],
    [{ loadMode: "forever" }, "loadMode"],
    [{ maxLoadedSkills: 0 }, "maxLoadedSkills"],
    [{ loadModes: { x: "sometimes" } }, "loadModes.x"],
    [{ onDrift: "ignore" }, "onDrift"],
  ])("rejects %o naming the option", async (bad, option) => {
    const skills = await createTestRegistry();
    try {
      resolveOptions({ skills, ...(bad as object) });
      expect.unreachable();
    } catch (error) {
      expect(SkillgraphError.isInstance(error)).toBe(true);
      expect((error as { option: string }).option).toBe(option);
    }
  });

  it("rejects a missing catalog", () => {
    expect(() => resolveOptions({} as never)).toThrow(/skills/);
  });
});
