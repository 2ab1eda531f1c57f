import { describe, expect, it } from "vitest";
import type { SkillLayer } from "../skill/skill-types.js";
import { skillMetadata } from "./__fixtures__/skill-metadata.js";
import { renderSkillsPrompt } from "./render-skills-prompt.js";

const at = (name: string, layer: SkillLayer) => {
  const skill = skillMetadata(name, `${name} description`);
  return { ...skill, origin: { ...skill.origin, layer } };
};
const skills = [at("zeta", "project"), at("alpha", "explicit"), at("mid", "user"), at("beta", "project")];

describe("renderSkillsPrompt: groupByLayer", () => {
  it("lists user, then project, then other skills, each group under a heading (markdown)", () => {
    const plain = renderSkillsPrompt(skills, { format: "markdown", preamble: false, includeLocation: false }).text;
    expect(plain).not.toContain("###");
    expect(plain.split("\n")[1]).toBe("- **alpha**: alpha description");
    const grouped = renderSkillsPrompt(skills, {
      format: "markdown",
      preamble: false,
      includeLocation: false,
      groupByLayer: true,
    }).text;
    expect(grouped).toBe(
      [
        "## Available skills",
        "### User skills",
        "- **mid**: mid description",
        "### Project skills",
        "- **beta**: beta description",
        "- **zeta**: zeta description",
        "### Skills from other sources",
        "- **alpha**: alpha description",
      ].join("\n"),
    );
  });

  it("marks the groups in XML with comments and keeps them when only names fit", () => {
    const full = renderSkillsPrompt(skills, { preamble: false, groupByLayer: true }).text;
    expect(full.indexOf("<!-- User skills -->")).toBeLessThan(full.indexOf("<name>\nmid"));
    expect(full.indexOf("<!-- Project skills -->")).toBeLessThan(full.indexOf("<name>\nbeta"));
    const names = renderSkillsPrompt(skills, { preamble: false, groupByLayer: true, budget: { maxChars: 300 } });
    expect(names.report.level).toBe("names-only");
    expect(names.text).toContain("<!-- User skills -->\nmid\n<!-- Project skills -->\nbeta\nzeta");
  });

  it("gives templates each skill's layer and a group line of their own", () => {
    const { text } = renderSkillsPrompt(skills, {
      preamble: false,
      groupByLayer: true,
      format: { skill: "{{name}} ({{layer}})", group: "[{{layer}}] {{title}}" },
    });
    expect(text).toBe(
      [
        "[user] User skills",
        "mid (user)",
        "[project] Project skills",
        "beta (project)",
        "zeta (project)",
        "[explicit] Skills from other sources",
        "alpha (explicit)",
      ].join("\n"),
    );
  });
});
