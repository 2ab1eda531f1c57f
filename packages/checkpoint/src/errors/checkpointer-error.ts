import { SkillgraphError } from "../internal/core.js";

const marker = Symbol.for("skillgraph.error.CheckpointerError");

/**
 * Why a checkpointer could not be created or used: `unknown-scheme` | `invalid-url` | `unreachable` | `setup-failed` |
 * `unsupported-saver` | `connection-lost` | `database-busy` | `disk-full`.
 */
export type CheckpointerErrorReason =
  | "unknown-scheme"
  | "invalid-url"
  | "unreachable"
  | "setup-failed"
  | "unsupported-saver"
  | "connection-lost"
  | "database-busy"
  | "disk-full";

/** Thrown when a checkpointer URL is wrong, its storage cannot be opened, or an operation on it failed for the database's sake (connection lost, busy, disk full); the URL in the message has its password redacted. */
export class CheckpointerError extends SkillgraphError {
  private readonly [marker] = true;
  /** The checkpointer URL concerned, password redacted. */
  readonly url: string;
  readonly reason: CheckpointerErrorReason;
  /** From `createCheckpointer` on PostgreSQL: how many times setup was tried (more than 1 while the server was restarting). */
  readonly attempts: number | undefined;
  /** From `createCheckpointer` on PostgreSQL: milliseconds from the first setup attempt to the last failure. */
  readonly elapsedMs: number | undefined;

  constructor({
    url,
    reason,
    message,
    cause,
    attempts,
    elapsedMs,
  }: {
    url: string;
    reason: CheckpointerErrorReason;
    message: string;
    cause?: unknown;
    attempts?: number;
    elapsedMs?: number;
  }) {
    super({ code: `checkpointer-${reason}`, message, cause });
    this.name = "CheckpointerError";
    this.url = url;
    this.reason = reason;
    this.attempts = attempts;
    this.elapsedMs = elapsedMs;
  }

  /** True when `error` is a CheckpointerError from any copy of this package. */
  static override isInstance(error: unknown): error is CheckpointerError {
    return SkillgraphError.hasMarker(error, marker);
  }
}
