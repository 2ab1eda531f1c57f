import { retryOnceOnConnectionLoss } from "../database/retry-once.js";
import { serialisedSetup } from "../database/serialised-setup.js";
import type pg from "pg";
import type { SaverBackend } from "../store/saver-backend.js";
import { holderState } from "./holder-liveness.js";
import { HOLDER_LOCK_SPACE, type HolderLock, postgresHolderLock } from "./postgres-holder-lock.js";
import { type AcquireResult, LEASE_TABLE, type LeaseRow, type LeaseStore, toHolder } from "./lease-rows.js";
import { installPostgresFence } from "./postgres-fence.js";

// The database's clock, so processes on hosts with skewed clocks agree on expiry.
const NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";
const RETURNING = "RETURNING owner, pid, host, identity, token, acquired_at, expires_at";

/** The holder lock of a pool's leases, ended when the pool is (closeCheckpointer). */
function holderLockOf(pool: pg.Pool): HolderLock {
  const lock = postgresHolderLock((pool as unknown as { options: pg.ClientConfig }).options);
  const end = pool.end.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { end: unknown }).end = (...args: unknown[]) => {
    void lock.end();
    return end(...args);
  };
  return lock;
}

/**
 * Lease rows in the PostgresSaver's schema; each change is one statement (a compare-and-set on the row). Each row
 * names its holder's advisory lock (`holder_lock`, see `postgresHolderLock`): a holder whose connection is gone is
 * taken over at once, unless this host can see its process still running.
 */
export function postgresLeases(backend: Extract<SaverBackend, { kind: "postgres" }>): LeaseStore {
  const { pool } = backend;
  const holderLock = holderLockOf(pool);
  const table = `"${backend.schema.replace(/"/g, '""')}".${LEASE_TABLE}`;
  const target = { url: `PostgreSQL (session leases, schema ${backend.schema})`, delayMs: 1000 };
  const query = <R extends object>(what: string, sql: string, args: unknown[] = []) =>
    retryOnceOnConnectionLoss(what, target, () => pool.query<R>(sql, args));
  installPostgresFence(pool, table);
  let ready: Promise<void> | undefined;
  // Under the database's set-up lock: processes starting together on a fresh schema take turns creating the table.
  const ensure = () =>
    (ready ??= serialisedSetup(pool, async () => {
      await query(
        "creating the lease table",
        `CREATE TABLE IF NOT EXISTS ${table} (thread_id TEXT PRIMARY KEY, owner TEXT NOT NULL,
          pid INTEGER NOT NULL, host TEXT NOT NULL, acquired_at BIGINT NOT NULL, expires_at BIGINT NOT NULL)`,
      );
      await query(
        "upgrading the lease table",
        `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS identity TEXT NOT NULL DEFAULT '',
           ADD COLUMN IF NOT EXISTS token BIGINT NOT NULL DEFAULT 1, ADD COLUMN IF NOT EXISTS holder_lock BIGINT`,
      );
    }).catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));

  const tryAcquire: LeaseStore["tryAcquire"] = async (threadId, me, ttlMs): Promise<AcquireResult> => {
    await ensure();
    const key = await holderLock.key();
    // connection_gone: the holder's lock is free (its connection ended); the xact lock taken to see so ends with the statement.
    const select = `SELECT owner, pid, host, identity, token, acquired_at, expires_at, expires_at > ${NOW_MS} AS live,
        CASE WHEN holder_lock IS NOT NULL AND expires_at > ${NOW_MS} AND owner <> $2
          THEN pg_try_advisory_xact_lock(${HOLDER_LOCK_SPACE}, holder_lock::int) ELSE false END AS connection_gone
      FROM ${table} WHERE thread_id = $1`;
    type Seen = LeaseRow & { live: boolean; connection_gone: boolean };
    const before = (await query<Seen>(`reading lease ${threadId}`, select, [threadId, me.owner])).rows[0];
    // A live foreign holder that is gone: its process (this host can tell) or else its connection. Take the row over
    // if it still names that owner.
    const state = before
      ? holderState({ pid: Number(before.pid), host: before.host, identity: before.identity ?? "" }, me.host)
      : "unknown";
    const dead =
      before !== undefined &&
      before.live &&
      before.owner !== me.owner &&
      (state === "gone" || (state === "unknown" && before.connection_gone));
    // One statement: insert, or take over a row that is ours, expired, or the dead holder's; a live lease stays.
    const taken = await query<LeaseRow>(
      `acquiring lease ${threadId}`,
      `INSERT INTO ${table} AS l (thread_id, owner, pid, host, identity, token, acquired_at, expires_at, holder_lock)
         VALUES ($1, $2, $3, $4, $5, 1, ${NOW_MS}, ${NOW_MS} + $6, $8)
       ON CONFLICT (thread_id) DO UPDATE SET owner = EXCLUDED.owner, pid = EXCLUDED.pid, host = EXCLUDED.host,
         identity = EXCLUDED.identity, holder_lock = EXCLUDED.holder_lock,
         token = CASE WHEN l.owner = EXCLUDED.owner THEN l.token ELSE l.token + 1 END,
         acquired_at = CASE WHEN l.owner = EXCLUDED.owner THEN l.acquired_at ELSE EXCLUDED.acquired_at END,
         expires_at = EXCLUDED.expires_at
       WHERE l.owner = EXCLUDED.owner OR l.expires_at <= ${NOW_MS} OR l.owner = $7
       ${RETURNING}`,
      [threadId, me.owner, me.pid, me.host, me.identity, ttlMs, dead && before ? before.owner : null, key],
    );
    const row = taken.rows[0];
    if (row) {
      const fromDead = dead && before ? { tookOverFromDeadPid: Number(before.pid) } : {};
      // As read before the takeover: a holder that released in between still counts (a hint for scheduling only).
      const tookOver = before !== undefined && before.owner !== me.owner && Number(before.expires_at) > 0;
      return { holder: toHolder(row), acquired: true, tookOver, ...fromDead };
    }
    const held = (await query<LeaseRow>(`reading lease ${threadId}`, select, [threadId, me.owner])).rows[0];
    if (!held) return tryAcquire(threadId, me, ttlMs); // gone between the two statements: try again
    return { holder: toHolder(held), acquired: false };
  };

  return {
    tryAcquire,
    async renew(threadId, owner, ttlMs) {
      await ensure();
      const key = await holderLock.key(); // the lock may have been taken again since (a database restart)
      const update = `UPDATE ${table} SET expires_at = ${NOW_MS} + $3, holder_lock = COALESCE($4, holder_lock)
        WHERE thread_id = $1 AND owner = $2`;
      const result = await query(`renewing lease ${threadId}`, update, [threadId, owner, ttlMs, key]);
      return result.rowCount === 1;
    },
    async release(threadId, owner) {
      await ensure();
      const update = `UPDATE ${table} SET expires_at = 0 WHERE thread_id = $1 AND owner = $2`;
      await query(`releasing lease ${threadId}`, update, [threadId, owner]);
    },
  };
}
