import type { SaverBackend } from "../store/saver-backend.js";
import { holderIsGone } from "./holder-liveness.js";
import { LEASE_TABLE, type LeaseRow, type LeaseStore, toHolder } from "./lease-rows.js";
import { installSqliteFence } from "./sqlite-fence.js";

const SELECT = `SELECT owner, pid, host, identity, token, acquired_at, expires_at FROM ${LEASE_TABLE} WHERE thread_id = ?`;

/** Lease rows in the SqliteSaver's file; every change in a `BEGIN IMMEDIATE` transaction (the write lock first). */
export function sqliteLeases(backend: Extract<SaverBackend, { kind: "sqlite" }>): LeaseStore {
  const { db } = backend;
  let ready = false;
  const ensure = () => {
    if (ready) return;
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${LEASE_TABLE} (thread_id TEXT PRIMARY KEY, owner TEXT NOT NULL, pid INTEGER NOT NULL,
         host TEXT NOT NULL, acquired_at INTEGER NOT NULL, expires_at INTEGER NOT NULL)`,
    );
    // Tables made before fencing lack these columns.
    const columns = new Set((db.pragma(`table_info(${LEASE_TABLE})`) as Array<{ name: string }>).map((c) => c.name));
    if (!columns.has("identity")) db.exec(`ALTER TABLE ${LEASE_TABLE} ADD COLUMN identity TEXT NOT NULL DEFAULT ''`);
    if (!columns.has("token")) db.exec(`ALTER TABLE ${LEASE_TABLE} ADD COLUMN token INTEGER NOT NULL DEFAULT 1`);
    backend.ensureTables();
    installSqliteFence(db, LEASE_TABLE);
    ready = true;
  };
  return {
    async tryAcquire(threadId, me, ttlMs) {
      ensure();
      // BEGIN IMMEDIATE takes the write lock first: two processes cannot both read "free" and both insert.
      const acquire = db.transaction(() => {
        const now = Date.now();
        const row = db.prepare(SELECT).get(threadId) as LeaseRow | undefined;
        const ours = row?.owner === me.owner;
        let deadPid: number | undefined;
        if (row && !ours && Number(row.expires_at) > now) {
          const holder = { pid: Number(row.pid), host: row.host, identity: row.identity ?? "" };
          if (!holderIsGone(holder, me.host)) return { holder: toHolder(row), acquired: false };
          deadPid = holder.pid;
        }
        const since = row && ours ? Number(row.acquired_at) : now;
        const token = !row ? 1 : ours ? Number(row.token) : Number(row.token) + 1;
        db.prepare(
          `INSERT OR REPLACE INTO ${LEASE_TABLE} (thread_id, owner, pid, host, identity, token, acquired_at, expires_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(threadId, me.owner, me.pid, me.host, me.identity, token, since, now + ttlMs);
        const holder = { owner: me.owner, pid: me.pid, host: me.host, since, expiresAt: now + ttlMs, token };
        const tookOver = row !== undefined && !ours && Number(row.expires_at) > 0;
        return { holder, acquired: true, tookOver, ...(deadPid === undefined ? {} : { tookOverFromDeadPid: deadPid }) };
      });
      return acquire.immediate();
    },
    async renew(threadId, owner, ttlMs) {
      ensure();
      const update = `UPDATE ${LEASE_TABLE} SET expires_at = ? WHERE thread_id = ? AND owner = ?`;
      return db.prepare(update).run(Date.now() + ttlMs, threadId, owner).changes === 1;
    },
    async release(threadId, owner) {
      ensure();
      db.prepare(`UPDATE ${LEASE_TABLE} SET expires_at = 0 WHERE thread_id = ? AND owner = ?`).run(threadId, owner);
    },
  };
}
