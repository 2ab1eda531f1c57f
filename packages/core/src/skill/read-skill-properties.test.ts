import { describe, expect, it } from "vitest";
import { SkillLoadError } from "./skill-load-error.js";
import { skillText, useTempFolder } from "./__fixtures__/skill-folders.js";
import { readSkillProperties, skillPropertiesToDict } from "./read-skill-properties.js";

const temp = useTempFolder("skillgraph-properties-");

describe("readSkillProperties", () => {
  it("returns stripped name and description and raw optional fields, without validating", async () => {
    const dir = temp.skill(
      "folder",
      skillText(
        "name: ' Not_Valid '\ndescription: |\n  Multi\n  line\nallowed-tools:\n  - Read\n  - Grep\nmetadata:\n  team: infra\n  owners:\n    - a\n    - b\nversion: 3",
      ),
    );
    const properties = await readSkillProperties(dir);
    expect(properties).toEqual({
      name: "Not_Valid",
      description: "Multi\nline",
      allowedTools: ["Read", "Grep"],
      metadata: { team: "infra", owners: "['a', 'b']" },
    });
  });

  it("orders to-dict keys like the reference and leaves out empty fields", async () => {
    const dir = temp.skill(
      "dict",
      skillText("name: dict\ndescription: x\nmetadata:\n  k: v\nlicense: MIT\ncompatibility: ''\nallowed-tools: Read"),
    );
    expect(Object.keys(skillPropertiesToDict(await readSkillProperties(dir)))).toEqual([
      "name",
      "description",
      "license",
      "allowed-tools",
      "metadata",
    ]);
  });

  it("throws SkillLoadError for a missing SKILL.md, strict-YAML violations and a missing description", async () => {
    await expect(readSkillProperties(temp.root())).rejects.toBeInstanceOf(SkillLoadError);
    await expect(
      readSkillProperties(temp.skill("flow", skillText("name: flow\ndescription: x\ntags: [a]"))),
    ).rejects.toThrow(/flow sequence/);
    await expect(readSkillProperties(temp.skill("no-desc", skillText("name: no-desc")))).rejects.toThrow(/description/);
  });
});
