import type { SkillDiagnosticCode } from "../errors/diagnostic-codes.js";
import type { SkillDiagnostic } from "./skill-types.js";
import { isSkillDiagnosticCode } from "../errors/error-codes.js";
import { SkillgraphError } from "../errors/skillgraph-error.js";

const marker = Symbol.for("skillgraph.error.SkillLoadError");

/**
 * Thrown by loadSkill() when a skill cannot be loaded (or is refused in strict mode); carries the diagnostics.
 * `code` is the first diagnostic's code (e.g. `name-dir-mismatch`), or `skill-load-failed` when there is none.
 */
export class SkillLoadError extends SkillgraphError {
  private readonly [marker] = true;
  declare readonly code: SkillDiagnosticCode | "skill-load-failed";
  /** Path of the skill folder or SKILL.md concerned. */
  readonly path: string;
  readonly diagnostics: SkillDiagnostic[];

  constructor({ path, diagnostics }: { path: string; diagnostics: SkillDiagnostic[] }) {
    const first = diagnostics[0];
    const more = diagnostics.length > 1 ? ` (+${diagnostics.length - 1} more)` : "";
    const code = first && isSkillDiagnosticCode(first.code) ? first.code : "skill-load-failed";
    super({ code, message: `${first?.message ?? `Cannot load skill at ${path}`}${more}` });
    this.name = "SkillLoadError";
    this.path = path;
    this.diagnostics = diagnostics;
  }

  /** True when `error` is a SkillLoadError from any copy of this package. */
  static override isInstance(error: unknown): error is SkillLoadError {
    return SkillgraphError.hasMarker(error, marker);
  }
}
