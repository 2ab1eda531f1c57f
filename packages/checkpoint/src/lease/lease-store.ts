import type { SessionHolder } from "../errors/session-busy-error.js";
import type { SaverBackend } from "../store/saver-backend.js";

/**
 * The lease rows, in the saver's own database:
 * `skillgraph_session_leases(thread_id PK, owner, pid, host, acquired_at, expires_at)`.
 */
export interface LeaseStore {
  /** Takes the lease unless someone else holds it unexpired; returns the holder then. Atomic across processes. */
  tryAcquire(threadId: string, me: Candidate, ttlMs: number): Promise<{ holder: SessionHolder; acquired: boolean }>;
  /** Extends our lease; false when it is no longer ours (expired and taken, or deleted). */
  renew(threadId: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Drops our lease (a no-op when it is no longer ours). */
  release(threadId: string, owner: string): Promise<void>;
}

/** Who asks for a lease. */
type Candidate = Omit<SessionHolder, "since" | "expiresAt">;

const TABLE = "skillgraph_session_leases";
const COLUMNS = "thread_id TEXT PRIMARY KEY, owner TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL";

interface Row {
  owner: string;
  pid: number | string;
  host: string;
  acquired_at: number | string;
  expires_at: number | string;
}

const toHolder = (row: Row): SessionHolder => ({
  owner: row.owner,
  pid: Number(row.pid),
  host: row.host,
  since: Number(row.acquired_at),
  expiresAt: Number(row.expires_at),
});

function sqliteLeases(backend: Extract<SaverBackend, { kind: "sqlite" }>): LeaseStore {
  const { db } = backend;
  let ready = false;
  const ensure = () => {
    if (ready) return;
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${TABLE} (${COLUMNS}, acquired_at INTEGER NOT NULL, expires_at INTEGER NOT NULL)`,
    );
    ready = true;
  };
  return {
    async tryAcquire(threadId, me, ttlMs) {
      ensure();
      // BEGIN IMMEDIATE takes the write lock first: two processes cannot both read "free" and both insert.
      const acquire = db.transaction(() => {
        const now = Date.now();
        const select = `SELECT owner, pid, host, acquired_at, expires_at FROM ${TABLE} WHERE thread_id = ?`;
        const row = db.prepare(select).get(threadId) as Row | undefined;
        if (row && row.owner !== me.owner && Number(row.expires_at) > now)
          return { holder: toHolder(row), acquired: false };
        const since = row && row.owner === me.owner ? Number(row.acquired_at) : now;
        const upsert = `INSERT OR REPLACE INTO ${TABLE} (thread_id, owner, pid, host, acquired_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`;
        db.prepare(upsert).run(threadId, me.owner, me.pid, me.host, since, now + ttlMs);
        return { holder: { ...me, since, expiresAt: now + ttlMs }, acquired: true };
      });
      return acquire.immediate();
    },
    async renew(threadId, owner, ttlMs) {
      ensure();
      const now = Date.now();
      const update = `UPDATE ${TABLE} SET expires_at = ? WHERE thread_id = ? AND owner = ? AND expires_at > ?`;
      return db.prepare(update).run(now + ttlMs, threadId, owner, now).changes === 1;
    },
    async release(threadId, owner) {
      ensure();
      db.prepare(`DELETE FROM ${TABLE} WHERE thread_id = ? AND owner = ?`).run(threadId, owner);
    },
  };
}

function postgresLeases(backend: Extract<SaverBackend, { kind: "postgres" }>): LeaseStore {
  const { pool } = backend;
  const table = `"${backend.schema.replace(/"/g, '""')}".${TABLE}`;
  // The database's clock, so processes on hosts with skewed clocks agree on expiry.
  const nowMs = "(extract(epoch from clock_timestamp()) * 1000)::bigint";
  let ready: Promise<void> | undefined;
  const ensure = () =>
    (ready ??= (async () => {
      const create = `CREATE TABLE IF NOT EXISTS ${table} (${COLUMNS}, acquired_at BIGINT NOT NULL, expires_at BIGINT NOT NULL)`;
      try {
        await pool.query(create);
      } catch (error) {
        // Two processes creating the table at once: one gets a unique violation on the catalog; the table exists then.
        if ((error as { code?: string }).code !== "23505") throw error;
        await pool.query(create);
      }
    })().catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));
  return {
    async tryAcquire(threadId, me, ttlMs) {
      await ensure();
      // One statement: insert, or take over a row that is ours or expired; a live foreign lease leaves it alone.
      const taken = await pool.query<Row>(
        `INSERT INTO ${table} AS l (thread_id, owner, pid, host, acquired_at, expires_at)
           VALUES ($1, $2, $3, $4, ${nowMs}, ${nowMs} + $5)
         ON CONFLICT (thread_id) DO UPDATE SET owner = EXCLUDED.owner, pid = EXCLUDED.pid, host = EXCLUDED.host,
           acquired_at = CASE WHEN l.owner = EXCLUDED.owner THEN l.acquired_at ELSE EXCLUDED.acquired_at END,
           expires_at = EXCLUDED.expires_at
         WHERE l.owner = EXCLUDED.owner OR l.expires_at <= ${nowMs}
         RETURNING owner, pid, host, acquired_at, expires_at`,
        [threadId, me.owner, me.pid, me.host, ttlMs],
      );
      if (taken.rows[0]) return { holder: toHolder(taken.rows[0]), acquired: true };
      const select = `SELECT owner, pid, host, acquired_at, expires_at FROM ${table} WHERE thread_id = $1`;
      const held = await pool.query<Row>(select, [threadId]);
      // Released between the two statements: try again.
      if (!held.rows[0]) return this.tryAcquire(threadId, me, ttlMs);
      return { holder: toHolder(held.rows[0]), acquired: false };
    },
    async renew(threadId, owner, ttlMs) {
      await ensure();
      const update = `UPDATE ${table} SET expires_at = ${nowMs} + $3 WHERE thread_id = $1 AND owner = $2 AND expires_at > ${nowMs}`;
      const result = await pool.query(update, [threadId, owner, ttlMs]);
      return result.rowCount === 1;
    },
    async release(threadId, owner) {
      await ensure();
      await pool.query(`DELETE FROM ${table} WHERE thread_id = $1 AND owner = $2`, [threadId, owner]);
    },
  };
}

/** In-process leases for a MemorySaver (one process is the only possible writer; this still orders its tasks). */
function memoryLeases(): LeaseStore {
  const rows = new Map<string, SessionHolder>();
  return {
    async tryAcquire(threadId, me, ttlMs) {
      const now = Date.now();
      const row = rows.get(threadId);
      if (row && row.owner !== me.owner && row.expiresAt > now) return { holder: row, acquired: false };
      const holder = { ...me, since: row?.owner === me.owner ? row.since : now, expiresAt: now + ttlMs };
      rows.set(threadId, holder);
      return { holder, acquired: true };
    },
    async renew(threadId, owner, ttlMs) {
      const row = rows.get(threadId);
      if (!row || row.owner !== owner || row.expiresAt <= Date.now()) return false;
      row.expiresAt = Date.now() + ttlMs;
      return true;
    },
    async release(threadId, owner) {
      if (rows.get(threadId)?.owner === owner) rows.delete(threadId);
    },
  };
}

const stores = new WeakMap<object, LeaseStore>();

/** The lease table of a saver's database (created on first use). */
export function leaseStoreFor(backend: SaverBackend): LeaseStore {
  const known = stores.get(backend.saver);
  if (known) return known;
  const store =
    backend.kind === "sqlite"
      ? sqliteLeases(backend)
      : backend.kind === "postgres"
        ? postgresLeases(backend)
        : memoryLeases();
  stores.set(backend.saver, store);
  return store;
}
