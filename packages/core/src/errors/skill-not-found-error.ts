import { SkillgraphError } from "./skillgraph-error.js";

const marker = Symbol.for("skillgraph.error.SkillNotFoundError");

/** Thrown when a skill name is not in the registry (or not visible in a view). */
export class SkillNotFoundError extends SkillgraphError {
  private readonly [marker] = true;
  readonly skillName: string;
  /** Close names the caller may have meant. */
  readonly suggestions: string[];

  constructor({ skillName, suggestions = [] }: { skillName: string; suggestions?: string[] }) {
    const hint = suggestions.length > 0 ? ` Did you mean: ${suggestions.join(", ")}?` : "";
    super({ code: "skill-not-found", message: `Skill '${skillName}' not found.${hint}` });
    this.name = "SkillNotFoundError";
    this.skillName = skillName;
    this.suggestions = suggestions;
  }

  /** True when `error` is a SkillNotFoundError from any copy of this package. */
  static override isInstance(error: unknown): error is SkillNotFoundError {
    return SkillgraphError.hasMarker(error, marker);
  }
}
