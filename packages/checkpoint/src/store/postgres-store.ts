import type pg from "pg";
import { retryOnceOnConnectionLoss } from "../database/retry-once.js";
import {
  type CheckpointKey,
  type CheckpointRow,
  type CheckpointStore,
  objectKeys,
  parseTimestamp,
  parseVersion,
  stringRecord,
  type StorageStats,
  type ThreadSummary,
} from "./checkpoint-store.js";

// Tables as created by @langchain/langgraph-checkpoint-postgres 1.0.5 migrations (schema-qualified):
// checkpoints(thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint JSONB without channel_values, metadata JSONB)
// checkpoint_blobs(thread_id, checkpoint_ns, channel, version, type, blob BYTEA): one row per channel version, shared by every
//   checkpoint whose channel_versions names that version; type 'empty' when the channel had no value (e.g. a delta channel).
// checkpoint_writes(thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob BYTEA); checkpoint_migrations(v).

/** Quotes a schema name the way the saver does (`"schema".table`). */
function tables(schema: string) {
  const quoted = `"${schema.replace(/"/g, '""')}"`;
  return {
    checkpoints: `${quoted}.checkpoints`,
    blobs: `${quoted}.checkpoint_blobs`,
    writes: `${quoted}.checkpoint_writes`,
  };
}

/**
 * A CheckpointStore over the PostgreSQL tables of a `PostgresSaver`. Each operation is retried once on a new
 * connection when the first one was lost (reads, and a delete in one transaction: either it committed and the retry
 * finds nothing more to delete, or it rolled back).
 */
export function postgresStore(pool: pg.Pool, schema: string): CheckpointStore {
  const store = rawPostgresStore(pool, schema);
  const target = { url: `PostgreSQL (checkpoint tables, schema ${schema})`, delayMs: 1000 };
  return {
    kind: "postgres",
    rows: (threadId) => retryOnceOnConnectionLoss(`reading thread ${threadId}`, target, () => store.rows(threadId)),
    deleteCheckpoints: (threadId, keys) =>
      retryOnceOnConnectionLoss(`pruning thread ${threadId}`, target, () => store.deleteCheckpoints(threadId, keys)),
    stats: (threadId) => retryOnceOnConnectionLoss("reading storage figures", target, () => store.stats(threadId)),
    threads: () => retryOnceOnConnectionLoss("listing sessions", target, () => store.threads()),
  };
}

function rawPostgresStore(pool: pg.Pool, schema: string): CheckpointStore {
  const t = tables(schema);

  const stats = async (threadId?: string): Promise<StorageStats> => {
    const where = threadId === undefined ? "" : " WHERE thread_id = $1";
    const args = threadId === undefined ? [] : [threadId];
    const [checkpoints, blobs, writes] = await Promise.all([
      pool.query(
        `SELECT count(*)::int AS n, count(DISTINCT thread_id)::int AS threads, coalesce(sum(octet_length(checkpoint::text) + octet_length(metadata::text)), 0)::bigint AS bytes FROM ${t.checkpoints}${where}`,
        args,
      ),
      pool.query(`SELECT coalesce(sum(octet_length(blob)), 0)::bigint AS bytes FROM ${t.blobs}${where}`, args),
      pool.query(
        `SELECT count(*)::int AS n, coalesce(sum(octet_length(blob)), 0)::bigint AS bytes FROM ${t.writes}${where}`,
        args,
      ),
    ]);
    const c = checkpoints.rows[0];
    return {
      threads: c.threads,
      checkpoints: c.n,
      writes: writes.rows[0].n,
      bytes: Number(c.bytes) + Number(blobs.rows[0].bytes) + Number(writes.rows[0].bytes),
    };
  };

  return {
    kind: "postgres",
    async rows(threadId: string): Promise<CheckpointRow[]> {
      const result = await pool.query(
        `SELECT cp.checkpoint_ns AS ns, cp.checkpoint_id AS id, cp.parent_checkpoint_id AS "parentId", cp.checkpoint->>'ts' AS ts, cp.checkpoint->>'v' AS v, cp.checkpoint->'channel_versions' AS versions,
           cp.metadata->'counters_since_delta_snapshot' AS counters, cp.metadata->'parents' AS parents,
           (SELECT coalesce(array_agg(bl.channel), '{}') FROM jsonb_each_text(cp.checkpoint->'channel_versions') v
              JOIN ${t.blobs} bl ON bl.thread_id = cp.thread_id AND bl.checkpoint_ns = cp.checkpoint_ns AND bl.channel = v.key AND bl.version = v.value
              WHERE bl.type <> 'empty') AS "valueChannels",
           (SELECT count(*)::int FROM ${t.writes} w WHERE w.thread_id = cp.thread_id AND w.checkpoint_ns = cp.checkpoint_ns AND w.checkpoint_id = cp.checkpoint_id) AS writes
         FROM ${t.checkpoints} cp WHERE cp.thread_id = $1`,
        [threadId],
      );
      return result.rows.map((row) => ({
        threadId,
        ns: row.ns,
        id: row.id,
        parentId: row.parentId ?? undefined,
        ts: parseTimestamp(row.ts),
        version: parseVersion(row.v),
        valueChannels: row.valueChannels ?? [],
        versionedChannels: objectKeys(row.versions),
        deltaChannels: objectKeys(row.counters),
        parents: stringRecord(row.parents),
        writes: row.writes,
      }));
    },
    async deleteCheckpoints(threadId: string, keys: CheckpointKey[]): Promise<void> {
      if (keys.length === 0) return;
      const namespaces = keys.map((key) => key.ns);
      const ids = keys.map((key) => key.id);
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const keyed = `(checkpoint_ns, checkpoint_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`;
        await client.query(`DELETE FROM ${t.writes} WHERE thread_id = $1 AND ${keyed}`, [threadId, namespaces, ids]);
        await client.query(`DELETE FROM ${t.checkpoints} WHERE thread_id = $1 AND ${keyed}`, [
          threadId,
          namespaces,
          ids,
        ]);
        // A blob is shared by every checkpoint naming its (channel, version): drop only those no remaining checkpoint names.
        await client.query(
          `DELETE FROM ${t.blobs} bl WHERE bl.thread_id = $1 AND bl.checkpoint_ns = ANY($2::text[]) AND NOT EXISTS (
             SELECT 1 FROM ${t.checkpoints} cp WHERE cp.thread_id = bl.thread_id AND cp.checkpoint_ns = bl.checkpoint_ns
               AND cp.checkpoint->'channel_versions'->>bl.channel = bl.version)`,
          [threadId, [...new Set(namespaces)]],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined); // on a lost connection the server rolled it back
        throw error;
      } finally {
        client.release();
      }
    },
    stats,
    async threads(): Promise<ThreadSummary[]> {
      const result = await pool.query(
        `SELECT c.thread_id AS "threadId", count(*)::int AS checkpoints,
           (coalesce(sum(octet_length(c.checkpoint::text) + octet_length(c.metadata::text)), 0)
             + (SELECT coalesce(sum(octet_length(b.blob)), 0) FROM ${t.blobs} b WHERE b.thread_id = c.thread_id)
             + (SELECT coalesce(sum(octet_length(w.blob)), 0) FROM ${t.writes} w WHERE w.thread_id = c.thread_id))::bigint AS bytes,
           (SELECT count(*)::int FROM ${t.writes} w WHERE w.thread_id = c.thread_id) AS writes,
           max(CASE WHEN c.checkpoint_ns = '' THEN c.checkpoint_id END) AS "lastCheckpointId",
           max(c.checkpoint->>'ts') AS "updatedAt"
         FROM ${t.checkpoints} c GROUP BY c.thread_id`,
      );
      return result.rows
        .map((row) => ({
          threadId: row.threadId,
          checkpoints: row.checkpoints,
          writes: row.writes,
          bytes: Number(row.bytes),
          lastCheckpointId: row.lastCheckpointId ?? undefined,
          updatedAt: row.updatedAt ? parseTimestamp(row.updatedAt) : undefined,
        }))
        .sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
    },
  };
}
