import { SkillgraphError } from "../internal/core.js";

const marker = Symbol.for("skillgraph.error.SessionLeaseLostError");

/**
 * Thrown by a write to a leased session after its lease ran out or was taken over (the process stalled past the lease
 * time and another one acquired it): the write is refused instead of silently overwriting the other writer's turns.
 */
export class SessionLeaseLostError extends SkillgraphError {
  private readonly [marker] = true;
  readonly threadId: string;

  constructor({ threadId, reason }: { threadId: string; reason: string }) {
    const message = `session ${threadId}: this process no longer holds its lease (${reason}); nothing more is written`;
    super({ code: "session-lease-lost", message });
    this.name = "SessionLeaseLostError";
    this.threadId = threadId;
  }
  /** True when `error` is a SessionLeaseLostError from any copy of this package. */
  static override isInstance(error: unknown): error is SessionLeaseLostError {
    return SkillgraphError.hasMarker(error, marker);
  }
}
