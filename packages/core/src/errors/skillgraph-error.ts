const marker = "skillgraph.error";
const symbol = Symbol.for(marker);

/** Options shared by every skillgraph error. */
export interface SkillgraphErrorOptions {
  /** Stable machine-readable code, e.g. `skill-not-found`. */
  code: string;
  message: string;
  cause?: unknown;
}

/**
 * Base class of every error skillgraph throws. Use `SkillgraphError.isInstance(e)` rather than `instanceof`:
 * it still works when two copies of the package are installed.
 */
export class SkillgraphError extends Error {
  private readonly [symbol] = true;
  /** Stable machine-readable code (documented in docs/errors.md). */
  readonly code: string;

  constructor({ code, message, cause }: SkillgraphErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "SkillgraphError";
    this.code = code;
  }

  /** True when `error` is a SkillgraphError from any copy of this package. */
  static isInstance(error: unknown): error is SkillgraphError {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[symbol] === true;
  }
}
