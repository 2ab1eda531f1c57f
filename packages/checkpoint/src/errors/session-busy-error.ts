import { SkillgraphError } from "../internal/core.js";

const marker = Symbol.for("skillgraph.error.SessionBusyError");

/** Who holds a session's lease. */
export interface SessionHolder {
  /** Lease owner id (random per lease). */
  owner: string;
  pid: number;
  host: string;
  /** When the holder acquired the lease (ms since epoch). */
  since: number;
  /** When the lease runs out unless renewed (ms since epoch, the database's clock on PostgreSQL). */
  expiresAt: number;
  /** Fencing token: grows by one on every takeover; the database refuses a write made under an older one. */
  token: number;
}

/** Thrown when a session (thread) is being written by another process: one writer at a time, never a lost update. */
export class SessionBusyError extends SkillgraphError {
  private readonly [marker] = true;
  readonly threadId: string;
  readonly holder: SessionHolder;

  constructor({ threadId, holder }: { threadId: string; holder: SessionHolder }) {
    const since = new Date(holder.since).toISOString();
    const expires = new Date(holder.expiresAt).toISOString();
    super({
      code: "session-busy",
      message:
        `session ${threadId} is in use by pid ${holder.pid} since ${since} (host ${holder.host}); ` +
        `try again when it exits, or after its lease expires at ${expires}`,
    });
    this.name = "SessionBusyError";
    this.threadId = threadId;
    this.holder = holder;
  }
  /** True when `error` is a SessionBusyError from any copy of this package. */
  static override isInstance(error: unknown): error is SessionBusyError {
    return SkillgraphError.hasMarker(error, marker);
  }
}
