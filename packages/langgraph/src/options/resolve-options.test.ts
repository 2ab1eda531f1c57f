import { describe, expect, it } from "vitest";
import { SkillgraphError } from "@skillgraph/core";
import { renderSkillsPrompt } from "@skillgraph/core/prompt";
import { createTestRegistry } from "../__fixtures__/test-skills.js";
import { DEFAULT_SKILLS_PREAMBLE, resolveOptions } from "./resolve-options.js";

describe("resolveOptions", () => {
  it("fills in the documented defaults", async () => {
    const resolved = resolveOptions({ skills: await createTestRegistry() });
    expect(resolved).toMatchObject({
      agentId: "default",
      toolExposure: "dynamic",
      bodyPlacement: "tool-result",
      loadMode: "session",
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
    // A count or size of 0 made every search empty or every file too large; 0 stays valid for enumThreshold (no enum).
    [{ searchLimit: 0 }, "searchLimit"],
    [{ maxResourceBytes: 0 }, "maxResourceBytes"],
    [{ maxResourceBytes: 2 ** 60 }, "maxResourceBytes"],
    [{ enumThreshold: -1 }, "enumThreshold"],
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
  it("the default preamble is core's one (naming read_skill) plus a sentence on search_skills", async () => {
    const skills = await createTestRegistry();
    const core = renderSkillsPrompt(skills.list()).text;
    const coreDefault = core.slice(0, core.indexOf("\n\n"));
    expect(DEFAULT_SKILLS_PREAMBLE).toBe(`${coreDefault} Use search_skills when no listed skill fits.`);
    expect(resolveOptions({ skills }).prompt.preamble).toBe(DEFAULT_SKILLS_PREAMBLE);
    expect(resolveOptions({ skills, prompt: { preamble: false } }).prompt.preamble).toBe(false);
  });
});
