// Validation under another runtime's SKILL.md dialect: its frontmatter keys and YAML forms are accepted with a
// `dialect-field` note instead of the reference's error. The reference verdicts stay the default.
import { z } from "zod";
import { parseOptions } from "../errors/parse-options.js";
import { createDiagnostic } from "./create-diagnostic.js";
import type { SkillDiagnostic } from "./skill-types.js";

/** Whose SKILL.md rules `validateSkill` applies: the reference's (default), a runtime's dialect, or every dialect. */
export type SkillDialect = "reference" | "tama" | "spring" | "claude" | "any";

/** Every dialect name `validateSkill` and `skillgraph validate --dialect` take. */
export const SKILL_DIALECTS: readonly SkillDialect[] = ["reference", "tama", "spring", "claude", "any"];

const LABELS: Record<Exclude<SkillDialect, "reference" | "any">, string> = {
  tama: "tama",
  spring: "spring-ai-alibaba",
  claude: "Claude Code",
};

/** Frontmatter keys each runtime reads beyond the spec. */
const DIALECT_KEYS: Record<Exclude<SkillDialect, "reference" | "any">, readonly string[]> = {
  tama: ["tama", "tools", "depends"],
  spring: ["allowed_tools", "allowedTools"],
  claude: [
    "model",
    "disable-model-invocation",
    "user-invocable",
    "argument-hint",
    "when_to_use",
    "version",
    "context",
    "agent",
    "hooks",
  ],
};

/** A dialect name, `reference` when absent. */
const skillDialectSchema = z
  .enum(SKILL_DIALECTS, { error: `must be one of ${SKILL_DIALECTS.join(", ")}` })
  .default("reference");

/** Checks a dialect name (InvalidOptionsError naming the option otherwise). */
export function checkSkillDialect(dialect: unknown, option = "dialect"): SkillDialect {
  return parseOptions(skillDialectSchema, dialect, option);
}

/** The runtime (label) whose dialect accepts a frontmatter key, or undefined. */
function ownerOf(dialect: SkillDialect, key: string): string | undefined {
  if (dialect === "reference") return undefined;
  const names = dialect === "any" ? (Object.keys(DIALECT_KEYS) as Array<keyof typeof DIALECT_KEYS>) : [dialect];
  const owner = names.find((name) => DIALECT_KEYS[name].includes(key));
  return owner === undefined ? undefined : LABELS[owner];
}

/** Whether a dialect's YAML reader takes flow collections (`[a, b]`, `{a: b}`): every runtime's does but the reference's strictyaml. */
export function dialectAllowsFlowYaml(dialect: SkillDialect): boolean {
  return dialect !== "reference";
}

/** A strict-YAML violation message that is only about a flow collection. */
export function isFlowViolation(message: string): boolean {
  return message.startsWith("flow ");
}

/** The note replacing a flow-collection error under a dialect. */
export function flowNote(dialect: SkillDialect, file: string, line: number | undefined, column: number | undefined) {
  return createDiagnostic(
    "dialect-field",
    { path: file, ...(line === undefined ? {} : { line }), ...(column === undefined ? {} : { column }) },
    `flow-style YAML ([a, b] or {a: b}) is accepted under the ${dialect} dialect; the reference validator refuses it (use a block list)`,
  );
}

/**
 * Field checks under a dialect: the `unknown-field` error of each key the dialect reads becomes a `dialect-field`
 * note (one already present is kept, not repeated).
 */
export function applyDialect(diagnostics: SkillDiagnostic[], dialect: SkillDialect, file: string): SkillDiagnostic[] {
  if (dialect === "reference") return diagnostics;
  const noted = new Set(
    diagnostics.filter((diagnostic) => diagnostic.code === "dialect-field").map((diagnostic) => diagnostic.field),
  );
  const out: SkillDiagnostic[] = [];
  for (const diagnostic of diagnostics) {
    const owner =
      diagnostic.code === "unknown-field" && diagnostic.field !== undefined
        ? ownerOf(dialect, diagnostic.field)
        : undefined;
    if (owner === undefined) {
      out.push(diagnostic);
      continue;
    }
    if (noted.has(diagnostic.field)) continue;
    out.push(
      createDiagnostic(
        "dialect-field",
        { path: file, field: diagnostic.field! },
        `'${diagnostic.field}' is ${owner}'s frontmatter, accepted under the ${dialect} dialect; the spec does not define it`,
      ),
    );
  }
  return out;
}
