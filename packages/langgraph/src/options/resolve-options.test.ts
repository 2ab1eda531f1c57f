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

  it.each([
    [{ maxLoadedSkills: 2.5 }, "Invalid option 'maxLoadedSkills': must be a positive integer"],
    [{ maxResourceBytes: 2 ** 60 }, "Invalid option 'maxResourceBytes': must be a positive integer"],
    [{ enumThreshold: "50" }, "Invalid option 'enumThreshold': must be a non-negative integer"],
    [{ loadModes: { pdf: "always" } }, `Invalid option 'loadModes.pdf': must be one of "turn", "once", "session"`],
    [{ allowDisableSkill: "global" }, `Invalid option 'allowDisableSkill': must be true, false, "thread" or "app"`],
    [{ agentId: "" }, "Invalid option 'agentId': must be a non-empty string"],
    [{ disabledSkills: ["pdf"] }, "Invalid option 'disabledSkills': must be a Set of skill names"],
    [{ fileReadTools: ["read_file", 3] }, "Invalid option 'fileReadTools[1]': must be a tool name"],
    [{ tools: [{ name: "a" }, { name: "a" }] }, "Invalid option 'tools': tool 'a' is listed twice"],
    [{ tools: [{ name: "a" }, {}] }, "Invalid option 'tools[1]': must be a LangChain tool (an object with a `name`)"],
    [{ skillTools: { pdf: {} } }, "Invalid option 'skillTools.pdf': must be an array of tools"],
    [
      { hooks: [{ name: "shell" }] },
      "Invalid option 'hooks[0]': a hook needs `name`, `tools` and `visibleTools(context)`",
    ],
    [{ evictionPolicy: "lru" }, "Invalid option 'evictionPolicy': must be a function"],
  ])("rejects %o with a message naming the option and what is wrong", async (bad, message) => {
    const skills = await createTestRegistry();
    expect(() => resolveOptions({ skills, ...(bad as object) })).toThrow(message);
  });

  it("reports the value at fault and keeps app-owned objects as given", async () => {
    const skills = await createTestRegistry();
    const error = (() => {
      try {
        resolveOptions({ skills, loadModes: { pdf: "always" as never } });
      } catch (caught) {
        return caught as { value: unknown };
      }
    })();
    expect(error?.value).toBe("always");
    const disabledSkills = new Set(["pdf"]);
    const resolved = resolveOptions({ skills, disabledSkills, allowDisableSkill: "app" });
    expect(resolved.disabledSkills).toBe(disabledSkills);
    expect(resolved.skills).toBe(skills);
    expect(resolved).toMatchObject({ allowDisableSkill: true, disableScope: "app" });
    expect(resolveOptions({ skills }).disabledSkills).not.toBe(resolveOptions({ skills }).disabledSkills);
  });

  it("rejects options that are not an object", () => {
    expect(() => resolveOptions("pdf" as never)).toThrow("Invalid option 'options': must be an object");
  });

  it("rejects a missing catalog", () => {
    expect(() => resolveOptions({} as never)).toThrow(
      "Invalid option 'skills': must be a SkillCatalog (a registry from createSkillRegistry or a view of one)",
    );
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
