import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { SessionBusyError, type SessionHolder } from "../errors/session-busy-error.js";
import { SessionLeaseLostError } from "../errors/session-lease-lost-error.js";
import { InvalidOptionsError } from "../internal/core.js";
import { parseOptions } from "../internal/core.js";
import { saverBackend } from "../store/saver-backend.js";
import { processIdentity } from "./holder-liveness.js";
import { LeasedCheckpointSaver } from "./leased-checkpoint-saver.js";
import { leaseReleaser } from "./lease-releaser.js";
import { leaseStoreFor } from "./lease-store.js";
import { sessionLeaseOptionsSchema, type SessionLeaseOptions } from "./session-lease-options.js";

/** A held lease on one session: renewed in the background until `release()`. */
export interface SessionLease {
  readonly threadId: string;
  /** Our holder record (owner id, pid, host, since, fencing token). */
  readonly holder: SessionHolder;
  /** Set when we took the lease at once from a holder on this host whose process had died (its pid). */
  readonly tookOverFromDeadPid: number | undefined;
  /**
   * True when we took the session from another holder that had not released it (its process died, its connection is
   * gone, or its lease ran out): its last turn may have stopped part-way, and a client may be waiting on it. Schedule
   * this thread's next turn first (`createTurnScheduler`, priority `resumed`). False for a new session or a released one.
   */
  readonly tookOver: boolean;
  /** True once the lease is known lost or released. */
  readonly lost: boolean;
  /** Throws SessionLeaseLostError once the lease is known lost (renewal found it taken, or a write was refused) or released. */
  assertHeld(): void;
  /**
   * The saver, with every write to this session fenced: the database checks, in the write's own transaction, that
   * the lease still has our owner and fencing token, and refuses the write (SessionLeaseLostError) otherwise.
   */
  protect(saver: BaseCheckpointSaver): BaseCheckpointSaver;
  /**
   * Stops renewing and ends the lease row, so another process may take the session at once; writes through
   * `protect()` are refused from now on. When the database cannot be reached it rejects (CheckpointerError
   * `connection-lost`), and the release is retried in the background until it lands or the lease runs out; calling
   * `release()` again tries again at once. Resolves at once once released.
   */
  release(): Promise<void>;
}

/**
 * Takes the single-writer lease on a session (thread) in the saver's own database: a row in `skillgraph_session_leases`
 * (SQLite file or PostgreSQL schema; in process for MemorySaver) with owner, pid, host and expiry, renewed in the
 * background and ended on `release()`. Another process gets SessionBusyError until the holder releases it, its lease
 * expires, or (same host) its process is found dead (pid and start time): then it is taken over and the fencing token
 * grows. Wrap the saver with `lease.protect(saver)` so a holder that lost its lease (stalled past `ttlMs` and taken
 * over) has its next write refused by the database instead of overwriting the new holder's turns.
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
  const { ttlMs, renewEveryMs, onLost } = parseOptions(sessionLeaseOptionsSchema, options);
  if (typeof threadId !== "string" || threadId === "") {
    throw new InvalidOptionsError({ option: "threadId", value: threadId, message: "must be a non-empty string" });
  }

  const backend = saverBackend(saver);
  const store = leaseStoreFor(backend);
  const me = { owner: randomUUID(), pid: process.pid, host: hostname(), identity: processIdentity() };
  const requestedAt = Date.now();
  const { holder, acquired, tookOverFromDeadPid, tookOver = false } = await store.tryAcquire(threadId, me, ttlMs);
  if (!acquired) throw new SessionBusyError({ threadId, holder });

  // In a MemorySaver nothing fences writes in storage: our own deadline (from before the request) does.
  let deadline = requestedAt + ttlMs;
  let lostError: SessionLeaseLostError | undefined;
  let released = false;
  const lose = (error: SessionLeaseLostError) => {
    if (lostError) return;
    lostError = error;
    clearInterval(timer);
    onLost?.(lostError);
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
        else lose(new SessionLeaseLostError({ threadId, reason: "another process took it over" }));
      })
      .catch(() => undefined) // the database is unreachable: keep trying; the fence refuses writes after a takeover
      .finally(() => (renewing = false));
  }, renewEveryMs);
  timer.unref();

  // A failed release is retried (each call, and in the background until the lease would have run out anyway).
  const releaser = leaseReleaser(
    () => store.release(threadId, me.owner),
    () => deadline,
  );
  const guard = {
    threadId,
    fence: { threadId, owner: me.owner, token: holder.token },
    assertHeld() {
      if (released) throw new SessionLeaseLostError({ threadId, reason: "it was released" });
      if (!lostError && backend.kind === "memory" && Date.now() >= deadline) {
        lose(new SessionLeaseLostError({ threadId, reason: `not renewed within ${ttlMs} ms` }));
      }
      if (lostError) throw lostError;
    },
    refused: lose,
  };
  const lease: SessionLease = {
    threadId,
    holder: { ...holder },
    tookOverFromDeadPid,
    tookOver,
    get lost() {
      return released || lostError !== undefined;
    },
    assertHeld: guard.assertHeld,
    protect(inner) {
      return new LeasedCheckpointSaver(inner, guard);
    },
    release() {
      released = true;
      clearInterval(timer);
      return releaser.release();
    },
  };
  return lease;
}
