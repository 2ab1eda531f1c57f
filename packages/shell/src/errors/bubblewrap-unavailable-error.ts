import { SkillgraphError } from "../internal/core.js";

/** Thrown when the bubblewrap executor is chosen but `bwrap` cannot be run (not installed, wrong path, not Linux). */
export class BubblewrapUnavailableError extends SkillgraphError {
  /** The path that was tried. */
  readonly bwrapPath: string;

  constructor({ bwrapPath, message }: { bwrapPath: string; message: string }) {
    super({ code: "bubblewrap-unavailable", message });
    this.name = "BubblewrapUnavailableError";
    this.bwrapPath = bwrapPath;
  }
}
