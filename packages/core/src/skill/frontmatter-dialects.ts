import { createDiagnostic } from "./create-diagnostic.js";
import type { SkillDependencies, SkillDiagnostic } from "./skill-types.js";

/** Most entries read from one dependency list (frontmatter is untrusted). */
const MAX_DEPENDENCIES = 64;
/** A package or program name skillgraph will print in an install hint: no spaces, quotes or shell syntax. */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+:=<>~@/-]{0,127}$/;

/** Frontmatter keys of other runtimes' SKILL.md dialects that skillgraph reads, and the spec's way to say the same. */
export const DIALECT_FIELDS: Readonly<Record<string, string>> = {
  allowed_tools: "rename 'allowed_tools' (spring-ai-alibaba) to 'allowed-tools'",
  allowedTools: "rename 'allowedTools' (spring-ai-alibaba) to 'allowed-tools'",
  tools: "rename 'tools' (tama) to 'allowed-tools'",
  tama: "move 'tama' under 'metadata' (e.g. metadata.tama.depends), which the spec allows",
  depends: "move 'depends' under 'metadata' (e.g. metadata.depends), which the spec allows",
};

/** The tools a skill unlocks when the spec's `allowed-tools` is absent: spring-ai-alibaba's or tama's spelling. */
export function dialectAllowedTools(frontmatter: Record<string, unknown>): unknown {
  if (Object.hasOwn(frontmatter, "allowed-tools")) return undefined;
  for (const key of ["allowed_tools", "allowedTools", "tools"])
    if (Object.hasOwn(frontmatter, key)) return frontmatter[key];
  return undefined;
}

/** tama's `depends` (top level, under `tama`, or under `metadata`), as checked lists; `undefined` when none is declared. */
export function dialectDependencies(frontmatter: Record<string, unknown>): SkillDependencies | undefined {
  const metadata = isPlainRecord(frontmatter.metadata) ? frontmatter.metadata : {};
  const candidates = [
    frontmatter.depends,
    isPlainRecord(frontmatter.tama) ? frontmatter.tama.depends : undefined,
    metadata.depends,
    isPlainRecord(metadata.tama) ? metadata.tama.depends : undefined,
  ];
  const declared = candidates.find(isPlainRecord);
  if (!declared) return undefined;
  return { bins: names(declared.bins), apt: names(declared.apt), uv: names(declared.uv) };
}

/** The command that would install the missing packages (shown, never run). */
export function installHints(dependencies: SkillDependencies): string[] {
  const hints: string[] = [];
  if (dependencies.apt.length > 0) hints.push(`apt-get install -y ${dependencies.apt.join(" ")}`);
  if (dependencies.uv.length > 0) hints.push(`uv pip install ${dependencies.uv.join(" ")}`);
  return hints;
}

/** A warning with the fix for every dialect key (the spec's `unknown-field` error is reported as well). */
export function dialectDiagnostics(frontmatter: Record<string, unknown>, file: string): SkillDiagnostic[] {
  return Object.keys(DIALECT_FIELDS)
    .filter((key) => Object.hasOwn(frontmatter, key))
    .map((key) =>
      createDiagnostic(
        "dialect-field",
        { path: file, field: key },
        `'${key}' is another runtime's SKILL.md dialect; skillgraph honours it, but the spec does not: ${DIALECT_FIELDS[key]}`,
      ),
    );
}

function names(value: unknown): string[] {
  const list = typeof value === "string" ? value.split(/[\s,]+/) : Array.isArray(value) ? value : [];
  return [
    ...new Set(
      list
        .filter((item): item is string => typeof item === "string" && SAFE_NAME.test(item.trim()))
        .map((item) => item.trim()),
    ),
  ].slice(0, MAX_DEPENDENCIES);
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
