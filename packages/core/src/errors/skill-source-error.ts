import { SkillgraphError } from "./skillgraph-error.js";

const marker = Symbol.for("skillgraph.error.SkillSourceError");

/** Why a named skills folder cannot be used: it does not exist, or it exists but cannot be read as a folder. */
export type SkillSourceProblem = "missing" | "unreadable";

/**
 * Thrown when a skills folder named explicitly as a source (`skillsFromDirectory("./skills")`) does not exist or cannot
 * be read: a wrong path is an error, not an empty registry. Sources marked `optional: true` (the conventional
 * locations) stay silently empty. Codes `skills-folder-missing`, `skills-folder-unreadable`.
 */
export class SkillSourceError extends SkillgraphError {
  private readonly [marker] = true;
  /** The absolute folder path. */
  readonly path: string;
  /** What is wrong with it. */
  readonly problem: SkillSourceProblem;

  constructor({ path, problem, reason }: { path: string; problem: SkillSourceProblem; reason?: string }) {
    const hint = "pass { optional: true } if it may be absent";
    super({
      code: problem === "missing" ? "skills-folder-missing" : "skills-folder-unreadable",
      message:
        problem === "missing"
          ? `skills folder ${path} does not exist (${hint})`
          : `skills folder ${path} cannot be read${reason ? `: ${reason}` : ""}`,
    });
    this.name = "SkillSourceError";
    this.path = path;
    this.problem = problem;
  }

  /** True when `error` is a SkillSourceError from any copy of this package. */
  static override isInstance(error: unknown): error is SkillSourceError {
    return SkillgraphError.hasMarker(error, marker);
  }
}
