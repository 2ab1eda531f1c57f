import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { validateSkill, type SkillDiagnostic, type SkillDialect } from "@skillgraph/core";

/** One line of `validate --json` output. */
export interface ValidationResult {
  /** The skill folder. */
  path: string;
  /** Its SKILL.md (null when there is none). */
  skillFile: string | null;
  name: string | null;
  valid: boolean;
  diagnostics: Array<Pick<SkillDiagnostic, "code" | "severity" | "message">>;
}

/**
 * One skill folder checked against the spec under `dialect`. With `strict`, warnings make it invalid too, except a
 * dialect's own notes (what was asked for).
 */
export async function validateFolder(
  folder: string,
  dialect: SkillDialect,
  strict: boolean,
): Promise<ValidationResult> {
  const outcome = await validateSkill(folder, { dialect });
  const strictFailure = outcome.issues.some(
    (issue) => issue.severity === "warning" && !(dialect !== "reference" && issue.code === "dialect-field"),
  );
  return {
    path: folder,
    skillFile: ["SKILL.md", "skill.md"].map((file) => join(folder, file)).find((file) => existsSync(file)) ?? null,
    name: outcome.skill?.name ?? null,
    valid: outcome.success && !(strict && strictFailure),
    diagnostics: outcome.issues.map(({ code, severity, message }) => ({ code, severity, message })),
  };
}

/** A scan diagnostic that means "could not open this": an unreadable folder, a dangling folder or SKILL.md link. */
export function isUnopened(diagnostic: SkillDiagnostic): boolean {
  return ["source-unreadable", "source-dangling-link", "skill-md-missing"].includes(diagnostic.code);
}

/** The scan's unopened entries as invalid results, one per path. */
export function scanProblems(diagnostics: readonly SkillDiagnostic[]): ValidationResult[] {
  return diagnostics.filter(isUnopened).map((diagnostic) => {
    const danglingSkillFile = diagnostic.code === "skill-md-missing";
    return {
      path: danglingSkillFile ? dirname(diagnostic.path) : diagnostic.path,
      skillFile: danglingSkillFile ? diagnostic.path : null,
      name: null,
      valid: false,
      diagnostics: [{ code: diagnostic.code, severity: "error", message: diagnostic.message }],
    };
  });
}
