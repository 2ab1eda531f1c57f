import { docsUrlForCode, type SkillgraphErrorCode } from "./error-codes.js";

const marker = Symbol.for("skillgraph.error");

/** Options shared by every skillgraph error. */
export interface SkillgraphErrorOptions {
  /** Stable machine-readable code from the code table, e.g. `skill-not-found` (docs/errors.md). */
  code: SkillgraphErrorCode;
  message: string;
  cause?: unknown;
}

/**
 * Base class of every error skillgraph throws. Use `SkillgraphError.isInstance(e)` rather than `instanceof`: it still
 * works when two copies of the package are installed. Each subclass has its own marker and `isInstance`, true only for
 * that class (and classes that extend it): `SkillLoadError.isInstance(new SkillNotFoundError(...))` is false.
 */
export class SkillgraphError extends Error {
  private readonly [marker] = true;
  /** Stable machine-readable code (documented in docs/errors.md; SKILL.md codes in docs/diagnostics.md). */
  readonly code: SkillgraphErrorCode;
  /** Link to the documentation of `code`. */
  readonly docsUrl: string;

  constructor({ code, message, cause }: SkillgraphErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "SkillgraphError";
    this.code = code;
    this.docsUrl = docsUrlForCode(code);
  }

  /** True when `error` is a SkillgraphError (any subclass) from any copy of this package. */
  static isInstance(error: unknown): error is SkillgraphError {
    return SkillgraphError.hasMarker(error, marker);
  }

  /** True when `error` carries `symbol` (a subclass's `Symbol.for` marker): the cross-copy `instanceof`. */
  protected static hasMarker(error: unknown, symbol: symbol): boolean {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[symbol] === true;
  }
}
