import { CliError } from "../../io/cli-error.js";

/** A model call (every attempt of it, retries included) did not finish within the wall-clock limit (`--timeout`). */
export class ModelCallTimeoutError extends CliError {
  /** The limit, in milliseconds. */
  readonly timeoutMs: number;
  /** HTTP requests made during the call (the first attempt plus retries). */
  readonly attempts: number;

  constructor({ timeoutMs, attempts, cause }: { timeoutMs: number; attempts: number; cause?: unknown }) {
    super(`model call timed out after ${timeoutMs} ms (${attempts} attempt${attempts === 1 ? "" : "s"})`);
    this.timeoutMs = timeoutMs;
    this.attempts = attempts;
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }

  /** Whether `value` is a ModelCallTimeoutError (also across module copies). */
  static isTimeout(value: unknown): value is ModelCallTimeoutError {
    return (
      CliError.isInstance(value) &&
      typeof (value as ModelCallTimeoutError).timeoutMs === "number" &&
      typeof (value as ModelCallTimeoutError).attempts === "number"
    );
  }
}
