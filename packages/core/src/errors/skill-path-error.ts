import { SkillgraphError } from "./skillgraph-error.js";

/** Thrown when a path asked of a skill folder is refused: traversal, absolute, NUL byte, symlink escape, binary, too large. */
export class SkillPathError extends SkillgraphError {
  readonly skillName: string;
  readonly requestedPath: string;
  /** Why it was refused: `traversal` | `absolute` | `nul-byte` | `symlink-escape` | `not-found` | `not-a-file` | `binary` | `too-large`. */
  readonly reason: string;

  constructor({ skillName, requestedPath, reason, message }: { skillName: string; requestedPath: string; reason: string; message: string }) {
    super({ code: `skill-path-${reason}`, message });
    this.name = "SkillPathError";
    this.skillName = skillName;
    this.requestedPath = requestedPath;
    this.reason = reason;
  }
}
