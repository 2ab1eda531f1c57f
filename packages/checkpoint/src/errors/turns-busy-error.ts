import { SkillgraphError } from "../internal/core.js";

const marker = Symbol.for("skillgraph.error.TurnsBusyError");

/**
 * Thrown at once by a turn scheduler (`createTurnScheduler`) that already runs `concurrency` turns and has `maxQueued`
 * waiting: the turn was not started and nothing was written; the client retries it after a short backoff (with the
 * same message id, so `runTurnOnce` never runs it twice).
 */
export class TurnsBusyError extends SkillgraphError {
  private readonly [marker] = true;
  /** Turns running when this one was refused. */
  readonly running: number;
  /** Turns waiting when this one was refused (`maxQueued`). */
  readonly queued: number;

  constructor({ running, queued, reason }: { running: number; queued: number; reason: string }) {
    super({
      code: "turns-busy",
      message: `this process is serving ${running} turns with ${queued} waiting (${reason}); retry after a short backoff`,
    });
    this.name = "TurnsBusyError";
    this.running = running;
    this.queued = queued;
  }
  /** True when `error` is a TurnsBusyError from any copy of this package. */
  static override isInstance(error: unknown): error is TurnsBusyError {
    return SkillgraphError.hasMarker(error, marker);
  }
}
