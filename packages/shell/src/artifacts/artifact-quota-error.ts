import { SkillgraphError } from "../internal/core.js";

const quotaMarker = Symbol.for("skillgraph.error.ArtifactQuotaError");

/** A save would take a thread over its artifact quota (code `artifact-quota-exceeded`); nothing was written. */
export class ArtifactQuotaError extends SkillgraphError {
  private readonly [quotaMarker] = true;
  override readonly name = "ArtifactQuotaError";

  constructor(message: string) {
    super({ code: "artifact-quota-exceeded", message });
  }

  /** True when `error` is an ArtifactQuotaError from any copy of this package. */
  static override isInstance(error: unknown): error is ArtifactQuotaError {
    return SkillgraphError.hasMarker(error, quotaMarker);
  }
}
