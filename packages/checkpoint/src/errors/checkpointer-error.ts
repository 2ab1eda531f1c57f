import { SkillgraphError } from "../internal/core.js";

const marker = Symbol.for("skillgraph.error.CheckpointerError");

/** Why a checkpointer could not be created: `unknown-scheme` | `invalid-url` | `unreachable` | `setup-failed` | `unsupported-saver`. */
export type CheckpointerErrorReason =
  | "unknown-scheme"
  | "invalid-url"
  | "unreachable"
  | "setup-failed"
  | "unsupported-saver";

/** Thrown when a checkpointer URL is wrong or its storage cannot be opened; the URL in the message has its password redacted. */
export class CheckpointerError extends SkillgraphError {
  private readonly [marker] = true;
  /** The checkpointer URL concerned, password redacted. */
  readonly url: string;
  readonly reason: CheckpointerErrorReason;

  constructor({
    url,
    reason,
    message,
    cause,
  }: {
    url: string;
    reason: CheckpointerErrorReason;
    message: string;
    cause?: unknown;
  }) {
    super({ code: `checkpointer-${reason}`, message, cause });
    this.name = "CheckpointerError";
    this.url = url;
    this.reason = reason;
  }

  /** True when `error` is a CheckpointerError from any copy of this package. */
  static override isInstance(error: unknown): error is CheckpointerError {
    return SkillgraphError.hasMarker(error, marker);
  }
}
