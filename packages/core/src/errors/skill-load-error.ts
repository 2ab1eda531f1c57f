import type { SkillDiagnostic } from "../skill/skill-types.js";
import { SkillgraphError } from "./skillgraph-error.js";

/** Thrown by loadSkill() when a skill cannot be loaded (or is refused in strict mode); carries the diagnostics. */
export class SkillLoadError extends SkillgraphError {
  /** Path of the skill folder or SKILL.md concerned. */
  readonly path: string;
  readonly diagnostics: SkillDiagnostic[];

  constructor({ path, diagnostics }: { path: string; diagnostics: SkillDiagnostic[] }) {
    const first = diagnostics[0];
    const more = diagnostics.length > 1 ? ` (+${diagnostics.length - 1} more)` : "";
    super({ code: first?.code ?? "skill-load-failed", message: `${first?.message ?? `Cannot load skill at ${path}`}${more}` });
    this.name = "SkillLoadError";
    this.path = path;
    this.diagnostics = diagnostics;
  }
}
