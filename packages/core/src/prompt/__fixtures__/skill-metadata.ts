import type { SkillMetadata } from "../../skill/skill-types.js";

/** A SkillMetadata for prompt tests: only name, description and file matter to rendering. */
export function skillMetadata(name: string, description: string, file = `/skills/${name}/SKILL.md`): SkillMetadata {
  return {
    name,
    description,
    allowedTools: [],
    extra: {},
    dir: file === "" ? "" : file.replace(/\/SKILL\.md$/, ""),
    file,
    origin: { sourceId: "code:test", layer: "explicit", kind: "code" },
    hash: "0".repeat(64),
    diagnostics: [],
  };
}
