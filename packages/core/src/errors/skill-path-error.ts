import type { SkillPathReason } from "./error-codes.js";
import { SkillgraphError } from "./skillgraph-error.js";

const marker = Symbol.for("skillgraph.error.SkillPathError");

/** Thrown when a path asked of a skill folder is refused: traversal, absolute, NUL byte, symlink escape, binary, too large. */
export class SkillPathError extends SkillgraphError {
  private readonly [marker] = true;
  readonly skillName: string;
  readonly requestedPath: string;
  /** Why it was refused; the code is `skill-path-<reason>`. */
  readonly reason: SkillPathReason;

  constructor({
    skillName,
    requestedPath,
    reason,
    message,
  }: {
    skillName: string;
    requestedPath: string;
    reason: SkillPathReason;
    message: string;
  }) {
    super({ code: `skill-path-${reason}`, message });
    this.name = "SkillPathError";
    this.skillName = skillName;
    this.requestedPath = requestedPath;
    this.reason = reason;
  }

  /** True when `error` is a SkillPathError from any copy of this package. */
  static override isInstance(error: unknown): error is SkillPathError {
    return SkillgraphError.hasMarker(error, marker);
  }
}
