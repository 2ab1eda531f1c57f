import { SkillgraphError } from "../internal/core.js";

const marker = Symbol.for("skillgraph.error.TurnsBusyError");

/**
 * Thrown at once by a turn scheduler (`createTurnScheduler`) that cannot take the turn: `maxQueued` turns already
 * wait, or (`admission: "refuse"`) `concurrency` turns already run. The turn was not started and nothing was written;
 * the client retries it after `retryAfterMs` (with the same message id, so `runTurnOnce` never runs it twice).
 */
export class TurnsBusyError extends SkillgraphError {
  private readonly [marker] = true;
  /** Always true: the turn was refused before it ran, so retrying it loses and doubles nothing. */
  readonly retryable = true;
  /** Turns running when this one was refused. */
  readonly running: number;
  /** Turns waiting when this one was refused. */
  readonly queued: number;
  /**
   * A hint: milliseconds after which a retry is likely to be taken (the recent mean turn time, longer when turns wait);
   * e.g. an HTTP `Retry-After: ${Math.ceil(retryAfterMs / 1000)}`. Add jitter so refused clients do not return together.
   */
  readonly retryAfterMs: number;

  constructor({
    running,
    queued,
    reason,
    retryAfterMs,
  }: {
    running: number;
    queued: number;
    reason: string;
    retryAfterMs: number;
  }) {
    super({
      code: "turns-busy",
      message:
        `this process is serving ${running} turns with ${queued} waiting (${reason}); the turn did not run: ` +
        `retry it with the same message id after about ${retryAfterMs} ms`,
    });
    this.name = "TurnsBusyError";
    this.running = running;
    this.queued = queued;
    this.retryAfterMs = retryAfterMs;
  }
  /** True when `error` is a TurnsBusyError from any copy of this package. */
  static override isInstance(error: unknown): error is TurnsBusyError {
    return SkillgraphError.hasMarker(error, marker);
  }
}
