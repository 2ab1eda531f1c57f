import type { SkillDiagnostic } from "../skill/skill-types.js";

// How a snapshot file stores a skill's diagnostics: one array per diagnostic, the entry's file path left out where it
// is the diagnostic's path and where it heads the message.

/** A diagnostic as stored: [code, severity, path (0: the entry's file), message after the path (1) or whole (0),
 * message, field (0: none), line (0: none), column (0: none)]; trailing "none" fields are left out. */
export type StoredDiagnostic = [string, string, string | 0, 0 | 1, string, (string | 0)?, number?, number?];

/** Stores a diagnostic of the skill whose SKILL.md is `file`. */
export function storeDiagnostic(diagnostic: SkillDiagnostic, file: string): StoredDiagnostic {
  const { code, severity, message, path, field, line, column } = diagnostic;
  const prefixed = message.startsWith(path) ? 1 : 0;
  const stored: StoredDiagnostic = [
    code,
    severity,
    path === file ? 0 : path,
    prefixed,
    prefixed ? message.slice(path.length) : message,
  ];
  if (column !== undefined) stored.push(field ?? 0, line ?? 0, column);
  else if (line !== undefined) stored.push(field ?? 0, line);
  else if (field !== undefined) stored.push(field);
  return stored;
}

/** Reads stored diagnostics of the skill whose SKILL.md is `file`; undefined when any is malformed. */
export function readDiagnostics(value: unknown, file: string): SkillDiagnostic[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const diagnostics: SkillDiagnostic[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const diagnostic = readDiagnostic(value[i], file);
    if (!diagnostic) return undefined;
    diagnostics[i] = diagnostic;
  }
  return diagnostics;
}

function readDiagnostic(item: unknown, file: string): SkillDiagnostic | undefined {
  if (!isStoredDiagnostic(item)) return undefined;
  // By index, not destructured: array destructuring runs the iterator protocol, slow in a cold process.
  const code = item[0];
  const severity = item[1];
  const storedPath = item[2];
  const prefixed = item[3];
  const message = item[4];
  const field = item[5];
  const line = item[6];
  const column = item[7];
  const path = storedPath === 0 ? file : storedPath;
  const diagnostic: SkillDiagnostic = {
    code,
    severity: severity as SkillDiagnostic["severity"],
    message: prefixed === 1 ? path + message : message,
    path,
  };
  if (typeof field === "string") diagnostic.field = field;
  if (line !== undefined && line > 0) diagnostic.line = line;
  if (column !== undefined && column > 0) diagnostic.column = column;
  return diagnostic;
}

/** Whether a value has the shape of a stored diagnostic (nothing is made). */
export function isStoredDiagnostic(item: unknown): item is StoredDiagnostic {
  if (!Array.isArray(item) || item.length < 5 || item.length > 8) return false;
  const stored = item as unknown[];
  const path = stored[2];
  const prefixed = stored[3];
  const field = stored[5];
  return (
    typeof stored[0] === "string" &&
    (stored[1] === "error" || stored[1] === "warning") &&
    (path === 0 || typeof path === "string") &&
    (prefixed === 0 || prefixed === 1) &&
    typeof stored[4] === "string" &&
    (field === undefined || field === 0 || typeof field === "string") &&
    (stored.length < 7 || isPositionOrZero(stored[6])) &&
    (stored.length < 8 || isPositionOrZero(stored[7]))
  );
}

/** A 1-based line or column, or 0 for none. */
function isPositionOrZero(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}
