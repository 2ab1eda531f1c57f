import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { skillText, useTempFolder } from "./__fixtures__/skill-folders.js";
import { validateSkill } from "./validate-skill.js";

const temp = useTempFolder("skillgraph-validate-");

describe("validateSkill", () => {
  it("succeeds on a valid skill and returns the loaded skill", async () => {
    const result = await validateSkill(temp.skill("valid", skillText("name: valid\ndescription: Valid.")));
    expect(result.success).toBe(true);
    expect(result.issues).toEqual([]);
    expect(result.skill?.name).toBe("valid");
  });

  it("fails with every field error in the reference's order, errors before warnings", async () => {
    const dir = temp.skill(
      "order",
      skillText(
        `name: Wrong_Name\ndescription: ${"d".repeat(1100)}\ncompatibility:\n  - x\nlicense:\n  a: b\nzeta: 1\nalpha: 2`,
      ),
    );
    const result = await validateSkill(dir);
    expect(result.success).toBe(false);
    expect(result.issues.map((issue) => issue.code)).toEqual([
      "unknown-field",
      "unknown-field",
      "name-lowercase",
      "name-chars",
      "name-dir-mismatch",
      "description-too-long",
      "compatibility-type",
      "license-type",
    ]);
    expect(result.skill?.name).toBe("Wrong_Name");
  });

  it("succeeds with warnings only", async () => {
    const result = await validateSkill(
      temp.skill("warnings", skillText("name: warnings\ndescription: x\ncompatibility: ''", "")),
    );
    expect(result.success).toBe(true);
    expect(result.issues.map((issue) => issue.severity)).toEqual(["warning", "warning"]);
  });

  it("reports a single early error for structural problems, as the reference returns early", async () => {
    const result = await validateSkill(temp.skill("structural", "---\nname: x\n"));
    expect(result).toEqual({
      success: false,
      issues: [
        expect.objectContaining({ code: "frontmatter-unclosed", path: join(temp.root(), "structural", "SKILL.md") }),
      ],
    });
  });

  it("does not look into subfolders: a folder holding only nested skills has no SKILL.md", async () => {
    temp.skill("group/nested", skillText("name: nested\ndescription: x"));
    const result = await validateSkill(join(temp.root(), "group"));
    expect(result.issues.map((issue) => issue.code)).toEqual(["skill-md-missing"]);
  });

  it("returns no skill when name or description is unusable, but still reports the issues", async () => {
    const result = await validateSkill(temp.skill("nameless", skillText("description: x")));
    expect(result.skill).toBeUndefined();
    expect(result.issues.map((issue) => issue.code)).toEqual(["name-missing"]);
  });
});
