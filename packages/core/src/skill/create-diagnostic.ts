import { SKILL_DIAGNOSTIC_CODES, type SkillDiagnosticCode } from "../errors/diagnostic-codes.js";
import type { SkillDiagnostic } from "./skill-types.js";

/** Where a diagnostic points: the file (or folder) and, when known, the field and 1-based line/column. */
export interface DiagnosticLocation {
  path: string;
  field?: string;
  line?: number;
  column?: number;
}

/** Builds a diagnostic whose severity comes from the codes table; the message is prefixed with the path (and line). */
export function createDiagnostic(
  code: SkillDiagnosticCode,
  location: DiagnosticLocation,
  message: string,
): SkillDiagnostic {
  const where =
    location.line === undefined
      ? location.path
      : `${location.path}:${location.line}${location.column === undefined ? "" : `:${location.column}`}`;
  const diagnostic: SkillDiagnostic = {
    code,
    severity: SKILL_DIAGNOSTIC_CODES[code].severity,
    message: `${where}: ${message}`,
    path: location.path,
  };
  if (location.field !== undefined) diagnostic.field = location.field;
  if (location.line !== undefined) diagnostic.line = location.line;
  if (location.column !== undefined) diagnostic.column = location.column;
  return diagnostic;
}
