import { createHash } from "node:crypto";
import { SkillLoadError } from "./skill-load-error.js";
import { buildSkillMetadata } from "./build-skill-metadata.js";
import { parseSkillMd } from "./parse-skill-md.js";
import type { SkillDialect } from "./skill-dialect.js";
import type { Skill, SkillDiagnostic, SkillOrigin } from "./skill-types.js";
import { validateFrontmatter } from "./validate-frontmatter.js";

/** Everything needed to turn SKILL.md text into a Skill. */
export interface AssembleSkillInput {
  text: string;
  /** Bytes the hash is computed from (defaults to the UTF-8 encoding of `text`). */
  bytes?: Uint8Array;
  /** sha256 (hex) of `bytes` when the caller already computed it. */
  hash?: string;
  /** Skill folder ("" for a skill defined in code). */
  dir: string;
  /** SKILL.md path ("" for a skill defined in code). */
  file: string;
  /** Label used in messages (the file path, or a code source id). */
  label: string;
  /** Folder name for the name/folder check. */
  dirName?: string;
  origin: SkillOrigin;
  /** Diagnostics found before parsing (e.g. about the file itself). */
  diagnostics?: SkillDiagnostic[];
  strict: boolean;
  /** Another runtime's SKILL.md dialect to accept (see parseSkillMd). @default "reference" */
  dialect?: SkillDialect;
}

const REQUIRED_FIELD_CODES = new Set(["name-missing", "name-empty", "description-missing", "description-empty"]);

/** sha256 (hex) of bytes. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Parses, validates and builds a Skill. Lenient: a usable name and description are enough, the rest rides along as
 * diagnostics. Throws SkillLoadError when the skill is unusable, or (with `strict`) when any error was found.
 */
export function assembleSkill(input: AssembleSkillInput): Skill {
  const parsed = parseSkillMd(input.text, {
    file: input.label,
    ...(input.dirName === undefined ? {} : { dirName: input.dirName }),
    ...(input.dialect === undefined ? {} : { dialect: input.dialect }),
  });
  const diagnostics = [...(input.diagnostics ?? []), ...parsed.diagnostics];
  const refusedPath = input.file === "" ? input.label : input.file;
  if (parsed.frontmatter === undefined) throw new SkillLoadError({ path: refusedPath, diagnostics });
  const metadata = buildSkillMetadata(parsed.frontmatter, {
    dir: input.dir,
    file: input.file,
    origin: input.origin,
    hash: input.hash ?? sha256Hex(input.bytes ?? input.text),
    diagnostics,
  });
  if (metadata === undefined) {
    // Say why, even when a YAML strictness error stopped the field checks.
    const missing = validateFrontmatter(parsed.frontmatter, { file: input.label }).filter((diagnostic) =>
      REQUIRED_FIELD_CODES.has(diagnostic.code),
    );
    const known = new Set(diagnostics.map((diagnostic) => diagnostic.code));
    throw new SkillLoadError({
      path: refusedPath,
      diagnostics: [...diagnostics, ...missing.filter((diagnostic) => !known.has(diagnostic.code))],
    });
  }
  if (input.strict && diagnostics.some((diagnostic) => diagnostic.severity === "error")) {
    throw new SkillLoadError({
      path: refusedPath,
      diagnostics: diagnostics.filter((diagnostic) => diagnostic.severity === "error"),
    });
  }
  return { ...metadata, body: parsed.body };
}
