import { SkillgraphError } from "../internal/core.js";

const marker = Symbol.for("skillgraph.error.RepositoryScanError");

/** Thrown when the folders a command can reach hold more repositories or folders than the scan for them may visit. */
export class RepositoryScanError extends SkillgraphError {
  private readonly [marker] = true;
  /** The folder whose scan went past a bound. */
  readonly root: string;

  constructor({ root, message }: { root: string; message: string }) {
    super({ code: "repository-scan", message });
    this.name = "RepositoryScanError";
    this.root = root;
  }

  /** True when `error` is a RepositoryScanError from any copy of this package. */
  static override isInstance(error: unknown): error is RepositoryScanError {
    return SkillgraphError.hasMarker(error, marker);
  }
}
