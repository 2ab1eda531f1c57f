import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { SessionBusyError, type SessionHolder } from "../errors/session-busy-error.js";
import { SessionLeaseLostError } from "../errors/session-lease-lost-error.js";
import { integerOption, InvalidOptionsError } from "../internal/core.js";
import { saverBackend } from "../store/saver-backend.js";
import { LeasedCheckpointSaver } from "./leased-checkpoint-saver.js";
import { leaseStoreFor } from "./lease-store.js";

/** Options of `acquireSessionLease`. */
export interface SessionLeaseOptions {
  /** The lease runs out this long after its last renewal (a crashed holder blocks the session this long). @default 30000 */
  ttlMs?: number;
  /** Renew this often while held. @default ttlMs / 3 */
  renewEveryMs?: number;
  /** Called once if the lease is lost (expired or taken over); writes through `protect()` throw from then on. */
  onLost?: (error: SessionLeaseLostError) => void;
}

/** A held lease on one session: renewed in the background until `release()`. */
export interface SessionLease {
  readonly threadId: string;
  /** Our holder record (owner id, pid, host, since). */
  readonly holder: SessionHolder;
  /** True once the lease is lost or released. */
  readonly lost: boolean;
  /** Throws SessionLeaseLostError unless the lease is still ours and unexpired by our own clock. */
  assertHeld(): void;
  /** The saver, with every write to this session checked against the lease first (`assertHeld`). */
  protect(saver: BaseCheckpointSaver): BaseCheckpointSaver;
  /** Stops renewing and deletes the lease row (safe to call twice). */
  release(): Promise<void>;
}

/**
 * Takes the single-writer lease on a session (thread) in the saver's own database: a row in `skillgraph_session_leases`
 * (SQLite file or PostgreSQL schema; in process for MemorySaver) with owner, pid, host and expiry, renewed in the
 * background and deleted on `release()`. Another process gets SessionBusyError until the holder releases it or its
 * lease expires (then it is taken over). Wrap the saver with `lease.protect(saver)` so a holder that lost its lease
 * (stalled past `ttlMs`) fails its next write instead of overwriting the new holder's turns.
 * @param saver A saver from `createCheckpointer` (or `withPruning` of one).
 * @param threadId The session's thread id.
 * @param options `ttlMs`, `renewEveryMs`, `onLost`.
 * @example
 * const lease = await acquireSessionLease(saver, "my-session"); // throws SessionBusyError if another process has it
 * try { await graph.invoke(input, { configurable: { thread_id: "my-session" } }); } finally { await lease.release(); }
 */
export async function acquireSessionLease(
  saver: BaseCheckpointSaver,
  threadId: string,
  options: SessionLeaseOptions = {},
): Promise<SessionLease> {
  // setTimeout fires at once for delays of 2^31 ms or more.
  const ttlMs = integerOption("ttlMs", options.ttlMs ?? 30_000, { max: 2 ** 31 - 1, detail: "milliseconds" });
  const renewEveryMs = integerOption("renewEveryMs", options.renewEveryMs ?? Math.max(1, Math.floor(ttlMs / 3)), {
    max: ttlMs - 1,
    detail: `milliseconds, below ttlMs (${ttlMs})`,
  });
  if (typeof threadId !== "string" || threadId === "") {
    throw new InvalidOptionsError({ option: "threadId", value: threadId, message: "must be a non-empty string" });
  }

  const store = leaseStoreFor(saverBackend(saver));
  const me = { owner: randomUUID(), pid: process.pid, host: hostname() };
  const requestedAt = Date.now();
  const { holder, acquired } = await store.tryAcquire(threadId, me, ttlMs);
  if (!acquired) throw new SessionBusyError({ threadId, holder });

  // Our own deadline, from before the request: never later than the database's.
  let deadline = requestedAt + ttlMs;
  let lostError: SessionLeaseLostError | undefined;
  let released = false;
  const lose = (reason: string) => {
    if (lostError) return;
    lostError = new SessionLeaseLostError({ threadId, reason });
    clearInterval(timer);
    options.onLost?.(lostError);
  };
  let renewing = false;
  const timer = setInterval(() => {
    if (renewing || lostError) return;
    renewing = true;
    const startedAt = Date.now();
    store
      .renew(threadId, me.owner, ttlMs)
      .then((still) => {
        if (still) deadline = startedAt + ttlMs;
        else lose("it expired and was taken over or removed");
      })
      .catch(() => undefined) // the database is unreachable: keep trying; the deadline check fences writes meanwhile
      .finally(() => (renewing = false));
  }, renewEveryMs);
  timer.unref();

  const lease: SessionLease = {
    threadId,
    holder: { ...holder },
    get lost() {
      return released || lostError !== undefined;
    },
    assertHeld() {
      if (released) throw new SessionLeaseLostError({ threadId, reason: "it was released" });
      if (!lostError && Date.now() >= deadline) lose(`not renewed within ${ttlMs} ms`);
      if (lostError) throw lostError;
    },
    protect(inner) {
      return new LeasedCheckpointSaver(inner, lease);
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await store.release(threadId, me.owner);
    },
  };
  return lease;
}
