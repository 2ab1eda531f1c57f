import path from "node:path";
import { fileURLToPath } from "node:url";
import type { SkillMetadata } from "@skillgraph/core";

/** Absolute path of the example report-builder skill. */
export const reportBuilderDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../examples/skills/report-builder");

/** Minimal SkillMetadata for tests (what a registry would produce). */
export function fixtureSkill(overrides: Partial<SkillMetadata> & { name: string }): SkillMetadata {
  return {
    description: `${overrides.name} test skill`,
    allowedTools: [],
    extra: {},
    dir: "",
    file: "",
    origin: { sourceId: "code:test", layer: "explicit", kind: "code" },
    hash: "0",
    diagnostics: [],
    ...overrides,
  };
}

/** A catalog over fixed skills, shaped like core's SkillCatalog.get. */
export function fixtureCatalog(skills: readonly SkillMetadata[]) {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  return { get: (name: string) => byName.get(name) };
}

/** Absolute path of the fixture skill whose script prompts twice. */
export const prompterDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "skills/prompter");
