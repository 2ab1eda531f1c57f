import { SkillgraphError } from "../internal/core.js";

const marker = Symbol.for("skillgraph.error.BubblewrapUnavailableError");

/** Thrown when the bubblewrap executor is chosen but `bwrap` cannot be run (not installed, wrong path, not Linux). */
export class BubblewrapUnavailableError extends SkillgraphError {
  private readonly [marker] = true;
  /** The path that was tried. */
  readonly bwrapPath: string;

  constructor({ bwrapPath, message }: { bwrapPath: string; message: string }) {
    super({ code: "bubblewrap-unavailable", message });
    this.name = "BubblewrapUnavailableError";
    this.bwrapPath = bwrapPath;
  }

  /** True when `error` is a BubblewrapUnavailableError from any copy of this package. */
  static override isInstance(error: unknown): error is BubblewrapUnavailableError {
    return SkillgraphError.hasMarker(error, marker);
  }
}
