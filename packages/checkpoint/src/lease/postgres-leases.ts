import { retryOnceOnConnectionLoss } from "../database/retry-once.js";
import { serialisedSetup } from "../database/serialised-setup.js";
import type { SaverBackend } from "../store/saver-backend.js";
import { holderIsGone } from "./holder-liveness.js";
import { type AcquireResult, LEASE_TABLE, type LeaseRow, type LeaseStore, toHolder } from "./lease-rows.js";
import { installPostgresFence } from "./postgres-fence.js";

// The database's clock, so processes on hosts with skewed clocks agree on expiry.
const NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";
const RETURNING = "RETURNING owner, pid, host, identity, token, acquired_at, expires_at";

/** Lease rows in the PostgresSaver's schema; each change is one statement (a compare-and-set on the row). */
export function postgresLeases(backend: Extract<SaverBackend, { kind: "postgres" }>): LeaseStore {
  const { pool } = backend;
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
           ADD COLUMN IF NOT EXISTS token BIGINT NOT NULL DEFAULT 1`,
      );
    }).catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));

  const tryAcquire: LeaseStore["tryAcquire"] = async (threadId, me, ttlMs): Promise<AcquireResult> => {
    await ensure();
    const select = `SELECT owner, pid, host, identity, token, acquired_at, expires_at, expires_at > ${NOW_MS} AS live FROM ${table} WHERE thread_id = $1`;
    const before = (await query<LeaseRow & { live: boolean }>(`reading lease ${threadId}`, select, [threadId])).rows[0];
    // A live foreign holder whose process is gone (this host): take the row over if it still names that owner.
    const dead =
      before && before.live && before.owner !== me.owner
        ? holderIsGone({ pid: Number(before.pid), host: before.host, identity: before.identity ?? "" }, me.host)
        : false;
    // One statement: insert, or take over a row that is ours, expired, or the dead holder's; a live lease stays.
    const taken = await query<LeaseRow>(
      `acquiring lease ${threadId}`,
      `INSERT INTO ${table} AS l (thread_id, owner, pid, host, identity, token, acquired_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, 1, ${NOW_MS}, ${NOW_MS} + $6)
       ON CONFLICT (thread_id) DO UPDATE SET owner = EXCLUDED.owner, pid = EXCLUDED.pid, host = EXCLUDED.host,
         identity = EXCLUDED.identity,
         token = CASE WHEN l.owner = EXCLUDED.owner THEN l.token ELSE l.token + 1 END,
         acquired_at = CASE WHEN l.owner = EXCLUDED.owner THEN l.acquired_at ELSE EXCLUDED.acquired_at END,
         expires_at = EXCLUDED.expires_at
       WHERE l.owner = EXCLUDED.owner OR l.expires_at <= ${NOW_MS} OR l.owner = $7
       ${RETURNING}`,
      [threadId, me.owner, me.pid, me.host, me.identity, ttlMs, dead && before ? before.owner : null],
    );
    const row = taken.rows[0];
    if (row) {
      const tookOver = dead && before ? { tookOverFromDeadPid: Number(before.pid) } : {};
      return { holder: toHolder(row), acquired: true, ...tookOver };
    }
    const held = (await query<LeaseRow>(`reading lease ${threadId}`, select, [threadId])).rows[0];
    if (!held) return tryAcquire(threadId, me, ttlMs); // gone between the two statements: try again
    return { holder: toHolder(held), acquired: false };
  };

  return {
    tryAcquire,
    async renew(threadId, owner, ttlMs) {
      await ensure();
      const update = `UPDATE ${table} SET expires_at = ${NOW_MS} + $3 WHERE thread_id = $1 AND owner = $2`;
      const result = await query(`renewing lease ${threadId}`, update, [threadId, owner, ttlMs]);
      return result.rowCount === 1;
    },
    async release(threadId, owner) {
      await ensure();
      const update = `UPDATE ${table} SET expires_at = 0 WHERE thread_id = $1 AND owner = $2`;
      await query(`releasing lease ${threadId}`, update, [threadId, owner]);
    },
  };
}
