import { createDiagnostic } from "./create-diagnostic.js";
import { dialectDiagnostics } from "./frontmatter-dialects.js";
import { codePointLength, isPyAlnum, pyStrip } from "./python-string.js";
import type { SkillDiagnostic } from "./skill-types.js";

/** Frontmatter keys the spec defines; the reference rejects any other. */
export const ALLOWED_FRONTMATTER_FIELDS = [
  "allowed-tools",
  "compatibility",
  "description",
  "license",
  "metadata",
  "name",
] as const;
/** Longest name, in code points after NFKC. */
export const MAX_NAME_LENGTH = 64;
/** Longest description, in code points (measured unstripped, as the reference does). */
export const MAX_DESCRIPTION_LENGTH = 1024;
/** Longest compatibility, in code points. */
export const MAX_COMPATIBILITY_LENGTH = 500;

/** Where the frontmatter came from. */
export interface FrontmatterContext {
  /** Path used in messages and as `path` (the SKILL.md file). */
  file: string;
  /** Name of the skill folder; when absent (a skill defined in code) the name/folder check is skipped. */
  dirName?: string;
}

const allowed = new Set<string>(ALLOWED_FRONTMATTER_FIELDS);

/**
 * The reference's `validate_metadata`: every spec rule on a parsed frontmatter mapping, in the reference's order
 * (unknown fields, name checks, description checks, compatibility checks), followed by skillgraph's warnings on
 * license, metadata and allowed-tools types.
 */
export function validateFrontmatter(
  frontmatter: Record<string, unknown>,
  context: FrontmatterContext,
): SkillDiagnostic[] {
  const { file } = context;
  const diagnostics: SkillDiagnostic[] = [];
  const unknown = Object.keys(frontmatter)
    .filter((key) => !allowed.has(key))
    .sort();
  for (const key of unknown) {
    diagnostics.push(
      createDiagnostic(
        "unknown-field",
        { path: file, field: key },
        `unexpected field '${key}' in frontmatter; only ${ALLOWED_FRONTMATTER_FIELDS.join(", ")} are allowed`,
      ),
    );
  }
  diagnostics.push(...validateName(frontmatter, context));
  diagnostics.push(...validateDescription(frontmatter, file));
  diagnostics.push(...validateCompatibility(frontmatter, file));
  diagnostics.push(...checkOptionalFieldTypes(frontmatter, file));
  diagnostics.push(...dialectDiagnostics(frontmatter, file));
  return diagnostics;
}

function validateName(frontmatter: Record<string, unknown>, { file, dirName }: FrontmatterContext): SkillDiagnostic[] {
  const at = { path: file, field: "name" };
  if (!Object.hasOwn(frontmatter, "name"))
    return [createDiagnostic("name-missing", at, "missing required field 'name' in frontmatter")];
  const raw = frontmatter.name;
  if (typeof raw !== "string" || pyStrip(raw) === "")
    return [createDiagnostic("name-empty", at, "field 'name' must be a non-empty string")];
  const name = pyStrip(raw).normalize("NFKC");
  const diagnostics: SkillDiagnostic[] = [];
  const length = codePointLength(name);
  if (length > MAX_NAME_LENGTH)
    diagnostics.push(
      createDiagnostic(
        "name-too-long",
        at,
        `skill name '${name}' exceeds ${MAX_NAME_LENGTH} character limit (${length} chars)`,
      ),
    );
  if (name !== name.toLowerCase())
    diagnostics.push(createDiagnostic("name-lowercase", at, `skill name '${name}' must be lowercase`));
  if (name.startsWith("-") || name.endsWith("-"))
    diagnostics.push(
      createDiagnostic("name-hyphen-edge", at, `skill name '${name}' cannot start or end with a hyphen`),
    );
  if (name.includes("--"))
    diagnostics.push(
      createDiagnostic("name-consecutive-hyphens", at, `skill name '${name}' cannot contain consecutive hyphens`),
    );
  if (![...name].every((character) => character === "-" || isPyAlnum(character))) {
    diagnostics.push(
      createDiagnostic(
        "name-chars",
        at,
        `skill name '${name}' contains invalid characters; only letters, digits, and hyphens are allowed`,
      ),
    );
  }
  if (dirName !== undefined && dirName.normalize("NFKC") !== name) {
    diagnostics.push(
      createDiagnostic("name-dir-mismatch", at, `folder name '${dirName}' must match skill name '${name}'`),
    );
  }
  return diagnostics;
}

function validateDescription(frontmatter: Record<string, unknown>, file: string): SkillDiagnostic[] {
  const at = { path: file, field: "description" };
  if (!Object.hasOwn(frontmatter, "description"))
    return [createDiagnostic("description-missing", at, "missing required field 'description' in frontmatter")];
  const description = frontmatter.description;
  if (typeof description !== "string" || pyStrip(description) === "")
    return [createDiagnostic("description-empty", at, "field 'description' must be a non-empty string")];
  const length = codePointLength(description);
  if (length > MAX_DESCRIPTION_LENGTH)
    return [
      createDiagnostic(
        "description-too-long",
        at,
        `description exceeds ${MAX_DESCRIPTION_LENGTH} character limit (${length} chars)`,
      ),
    ];
  if (PLACEHOLDER_DESCRIPTION.test(description))
    return [
      createDiagnostic(
        "description-placeholder",
        at,
        "description is still a placeholder: say what the skill does and when to use it (an agent loads it by this text)",
      ),
    ];
  return [];
}

/** The description `skillgraph init` writes until it is edited, and the usual to-do markers. */
const PLACEHOLDER_DESCRIPTION = /^Describe what \S+ does and when to use it\b|\b(TODO|TBD|FIXME)\b/;

function validateCompatibility(frontmatter: Record<string, unknown>, file: string): SkillDiagnostic[] {
  if (!Object.hasOwn(frontmatter, "compatibility")) return [];
  const at = { path: file, field: "compatibility" };
  const compatibility = frontmatter.compatibility;
  if (typeof compatibility !== "string")
    return [createDiagnostic("compatibility-type", at, "field 'compatibility' must be a string")];
  const length = codePointLength(compatibility);
  if (length > MAX_COMPATIBILITY_LENGTH)
    return [
      createDiagnostic(
        "compatibility-too-long",
        at,
        `compatibility exceeds ${MAX_COMPATIBILITY_LENGTH} character limit (${length} chars)`,
      ),
    ];
  if (length === 0)
    return [
      createDiagnostic("compatibility-empty", at, "field 'compatibility' is empty; the spec asks for 1-500 characters"),
    ];
  return [];
}

function checkOptionalFieldTypes(frontmatter: Record<string, unknown>, file: string): SkillDiagnostic[] {
  const diagnostics: SkillDiagnostic[] = [];
  if (Object.hasOwn(frontmatter, "license") && typeof frontmatter.license !== "string") {
    diagnostics.push(
      createDiagnostic(
        "license-type",
        { path: file, field: "license" },
        "field 'license' should be a string; it is ignored",
      ),
    );
  }
  if (Object.hasOwn(frontmatter, "metadata")) {
    const metadata = frontmatter.metadata;
    if (!isPlainRecord(metadata)) {
      diagnostics.push(
        createDiagnostic(
          "metadata-type",
          { path: file, field: "metadata" },
          "field 'metadata' should be a mapping of string keys to string values; it is ignored",
        ),
      );
    } else {
      const nested = Object.keys(metadata).filter((key) => typeof metadata[key] !== "string");
      if (nested.length > 0) {
        diagnostics.push(
          createDiagnostic(
            "metadata-type",
            { path: file, field: "metadata" },
            `metadata values should be strings; not a string: ${nested.join(", ")}`,
          ),
        );
      }
    }
  }
  if (Object.hasOwn(frontmatter, "allowed-tools")) {
    const tools = frontmatter["allowed-tools"];
    const ok = typeof tools === "string" || (Array.isArray(tools) && tools.every((tool) => typeof tool === "string"));
    if (!ok)
      diagnostics.push(
        createDiagnostic(
          "allowed-tools-type",
          { path: file, field: "allowed-tools" },
          "field 'allowed-tools' should be a space-separated string or a list of strings",
        ),
      );
  }
  return diagnostics;
}

/** True for a plain object (a parsed YAML mapping), false for arrays, strings and null. */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
