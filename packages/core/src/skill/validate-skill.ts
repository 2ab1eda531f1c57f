import { resolve } from "node:path";
import { SkillLoadError } from "./skill-load-error.js";
import { assembleSkill } from "./assemble-skill.js";
import { parseSkillMd } from "./parse-skill-md.js";
import { checkReadSkillMdOptions, readSkillMdFile, skillDirName, type ReadSkillMdOptions } from "./read-skill-file.js";
import { checkSkillDialect, type SkillDialect } from "./skill-dialect.js";
import type { Skill, SkillDiagnostic, SkillOrigin } from "./skill-types.js";

/** Options of `validateSkill`. */
export interface ValidateSkillOptions extends ReadSkillMdOptions {
  /** Origin recorded on the returned skill. @default { sourceId: "dir:<dir>", layer: "explicit", kind: "directory" } */
  origin?: SkillOrigin;
  /**
   * Accept another runtime's SKILL.md dialect (`tama`, `spring`, `claude`, or `any`): its frontmatter keys and
   * flow-style YAML get a `dialect-field` note instead of an error. @default "reference" (the reference's verdicts)
   */
  dialect?: SkillDialect;
}

/** The verdict on one skill folder. */
export interface SkillValidationResult {
  /** True when no issue has severity `error` (warnings do not fail a skill). */
  success: boolean;
  /** Every issue: errors in the reference validator's order, then warnings. */
  issues: SkillDiagnostic[];
  /** The skill as lenient loading sees it, when its name and description are usable. */
  skill?: Skill;
}

/**
 * Validates one skill folder as the reference validator (skills-ref `validate`) does: no recursion, same checks in
 * the same order, same verdict; each issue has a stable `code`. Never throws for a bad skill.
 * @param dir The skill folder.
 * @param options `maxBytes` (@default 1048576) and `root` as for `loadSkill`.
 * @example
 * const { success, issues } = await validateSkill("./skills/pdf");
 * for (const issue of issues) console.log(issue.code, issue.message);
 */
export async function validateSkill(dir: string, options: ValidateSkillOptions = {}): Promise<SkillValidationResult> {
  checkReadSkillMdOptions(options);
  const dialect = checkSkillDialect(options.dialect);
  const read = await readSkillMdFile(dir, options);
  if (!read.ok) return { success: false, issues: read.diagnostics };
  const dirName = skillDirName(read.dir);
  const origin = options.origin ?? { sourceId: `dir:${resolve(dir)}`, layer: "explicit", kind: "directory" };
  let issues: SkillDiagnostic[];
  let skill: Skill | undefined;
  try {
    skill = assembleSkill({
      text: read.text,
      bytes: read.bytes,
      dir: read.dir,
      file: read.file,
      label: read.file,
      dirName,
      origin,
      diagnostics: read.diagnostics,
      strict: false,
      dialect,
    });
    issues = skill.diagnostics;
  } catch (error) {
    if (!(error instanceof SkillLoadError)) throw error;
    // Unusable skill: report exactly what the checks found (without the load-only explanations).
    issues = [...read.diagnostics, ...parseSkillMd(read.text, { file: read.file, dirName, dialect }).diagnostics];
  }
  const ordered = [
    ...issues.filter((issue) => issue.severity === "error"),
    ...issues.filter((issue) => issue.severity !== "error"),
  ];
  const success = !ordered.some((issue) => issue.severity === "error");
  return skill === undefined ? { success, issues: ordered } : { success, issues: ordered, skill };
}
