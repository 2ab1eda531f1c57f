import { stringify } from "yaml";
import type { SkillLayer } from "../skill/skill-types.js";
import type { CodeSkillCandidate, SkillSource } from "./skill-source.js";

/** A skill written in code instead of a folder. */
export interface SkillDefinition {
  name: string;
  description: string;
  /** Markdown instructions (level 2). */
  body: string;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  /** Tools this skill unlocks (the `allowed-tools` field). */
  allowedTools?: string[];
  /** Resource files served at level 3, path relative to the skill, e.g. `references/api.md`. */
  files?: Record<string, string>;
}

/** A code-defined skill, ready for `skillsFromCode`. */
export interface DefinedSkill {
  readonly definition: SkillDefinition;
  /** The SKILL.md text the definition stands for (validated exactly like a file). */
  readonly text: string;
}

/**
 * Defines a skill in code; it is validated like a SKILL.md file when a registry loads it.
 * @example defineSkill({ name: "greeting", description: "Greets people.", body: "Say hello." })
 */
export function defineSkill(definition: SkillDefinition): DefinedSkill {
  const frontmatter: Record<string, unknown> = { name: definition.name, description: definition.description };
  if (definition.license !== undefined) frontmatter.license = definition.license;
  if (definition.compatibility !== undefined) frontmatter.compatibility = definition.compatibility;
  if (definition.allowedTools !== undefined) frontmatter["allowed-tools"] = definition.allowedTools.join(" ");
  if (definition.metadata !== undefined) frontmatter.metadata = definition.metadata;
  const text = `---\n${stringify(frontmatter, { lineWidth: 0 })}---\n\n${definition.body.trim()}\n`;
  return { definition, text };
}

/** Options for a code source. */
export interface CodeSourceOptions {
  /** Source id suffix, to tell several code sources apart. @default "code" */
  id?: string;
  /** @default "explicit" */
  layer?: SkillLayer;
}

/**
 * Skills defined in code as a source.
 * @example createSkillRegistry({ sources: [skillsFromCode([defineSkill({ ... })])] })
 */
export function skillsFromCode(
  skills: ReadonlyArray<DefinedSkill | SkillDefinition>,
  options: CodeSourceOptions = {},
): SkillSource {
  const defined = skills.map((skill) => ("text" in skill && "definition" in skill ? skill : defineSkill(skill)));
  const candidates: CodeSkillCandidate[] = defined.map((skill) => ({
    kind: "code",
    key: skill.definition.name,
    text: skill.text,
    files: skill.definition.files ?? {},
  }));
  return {
    id: `code:${options.id ?? "code"}`,
    layer: options.layer ?? "explicit",
    kind: "code",
    async scan() {
      return { candidates, diagnostics: [] };
    },
  };
}
