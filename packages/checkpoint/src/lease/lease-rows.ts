import type { SessionHolder } from "../errors/session-busy-error.js";

/** Who asks for a lease: `identity` tells the process apart from a later one with the same pid (see `processIdentity`). */
export type LeaseCandidate = Omit<SessionHolder, "since" | "expiresAt" | "token"> & { identity: string };

/** The outcome of `tryAcquire`. */
export interface AcquireResult {
  holder: SessionHolder;
  acquired: boolean;
  /** Set when we took the lease from another holder that had not released it (process dead, connection gone, or lease run out). */
  tookOver?: boolean;
  /** Set when we took the lease from a holder on this host whose process is gone, before its expiry. */
  tookOverFromDeadPid?: number;
}

/**
 * The lease rows, in the saver's own database:
 * `skillgraph_session_leases(thread_id PK, owner, pid, host, identity, token, acquired_at, expires_at)`.
 * A row outlives its lease (release sets `expires_at` to 0) so the fencing token only ever grows.
 */
export interface LeaseStore {
  /**
   * Takes the lease unless another live holder has it unexpired; returns the holder then. Atomic across processes.
   * A holder on this host whose process is gone is taken over at once; the token grows by one on every takeover.
   */
  tryAcquire(threadId: string, me: LeaseCandidate, ttlMs: number): Promise<AcquireResult>;
  /** Extends our lease; false when it is no longer ours (taken over, or the row deleted). */
  renew(threadId: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Ends our lease (a no-op when it is no longer ours). */
  release(threadId: string, owner: string): Promise<void>;
}

/** Name of the lease table. */
export const LEASE_TABLE = "skillgraph_session_leases";

/** A lease row as read from either database. */
export interface LeaseRow {
  owner: string;
  pid: number | string;
  host: string;
  identity: string | null;
  token: number | string;
  acquired_at: number | string;
  expires_at: number | string;
}

/** The public holder record of a row. */
export const toHolder = (row: LeaseRow): SessionHolder => ({
  owner: row.owner,
  pid: Number(row.pid),
  host: row.host,
  since: Number(row.acquired_at),
  expiresAt: Number(row.expires_at),
  token: Number(row.token),
});
