import type Database from "better-sqlite3";
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

interface RawRow {
  ns: string;
  id: string;
  parentId: string | null;
  ts: string | null;
  v: number | string | null;
  valueChannels: string | null;
  versionedChannels: string | null;
  counters: string | null;
  parents: string | null;
  writes: number;
}

// Tables and columns as created by @langchain/langgraph-checkpoint-sqlite 1.0.4 `SqliteSaver.setup()`:
// checkpoints(thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint BLOB, metadata BLOB)
// writes(thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value BLOB). Checkpoint and metadata are JSON text.
const rowsSql = `
SELECT c.checkpoint_ns AS ns, c.checkpoint_id AS id, c.parent_checkpoint_id AS parentId,
  CASE WHEN json_valid(CAST(c.checkpoint AS TEXT)) THEN json_extract(CAST(c.checkpoint AS TEXT), '$.ts') END AS ts,
  CASE WHEN json_valid(CAST(c.checkpoint AS TEXT)) THEN json_extract(CAST(c.checkpoint AS TEXT), '$.v') END AS v,
  CASE WHEN json_valid(CAST(c.checkpoint AS TEXT)) THEN (SELECT json_group_array(key) FROM json_each(CAST(c.checkpoint AS TEXT), '$.channel_values')) END AS valueChannels,
  CASE WHEN json_valid(CAST(c.checkpoint AS TEXT)) THEN json_extract(CAST(c.checkpoint AS TEXT), '$.channel_versions') END AS versionedChannels,
  CASE WHEN json_valid(CAST(c.metadata AS TEXT)) THEN json_extract(CAST(c.metadata AS TEXT), '$.counters_since_delta_snapshot') END AS counters,
  CASE WHEN json_valid(CAST(c.metadata AS TEXT)) THEN json_extract(CAST(c.metadata AS TEXT), '$.parents') END AS parents,
  (SELECT count(*) FROM writes w WHERE w.thread_id = c.thread_id AND w.checkpoint_ns = c.checkpoint_ns AND w.checkpoint_id = c.checkpoint_id) AS writes
FROM checkpoints c WHERE c.thread_id = ?`;

/** A CheckpointStore over the SQLite database of a `SqliteSaver` (tables `checkpoints`, `writes`). */
export function sqliteStore(db: Database.Database, ensureTables: () => void): CheckpointStore {
  const prepared = () => {
    ensureTables();
    return {
      rows: db.prepare(rowsSql),
      deleteWrites: db.prepare("DELETE FROM writes WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?"),
      deleteCheckpoint: db.prepare(
        "DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?",
      ),
    };
  };
  let statements: ReturnType<typeof prepared> | undefined;
  const sql = () => (statements ??= prepared());

  const stats = async (threadId?: string): Promise<StorageStats> => {
    sql();
    const where = threadId === undefined ? "" : " WHERE thread_id = ?";
    const args = threadId === undefined ? [] : [threadId];
    const checkpoints = db
      .prepare(
        `SELECT count(*) AS n, count(DISTINCT thread_id) AS threads, coalesce(sum(length(checkpoint) + length(metadata)), 0) AS bytes FROM checkpoints${where}`,
      )
      .get(...args) as { n: number; threads: number; bytes: number };
    const writes = db
      .prepare(`SELECT count(*) AS n, coalesce(sum(length(value)), 0) AS bytes FROM writes${where}`)
      .get(...args) as { n: number; bytes: number };
    return {
      threads: checkpoints.threads,
      checkpoints: checkpoints.n,
      writes: writes.n,
      bytes: checkpoints.bytes + writes.bytes,
    };
  };

  return {
    kind: "sqlite",
    async rows(threadId: string): Promise<CheckpointRow[]> {
      const raw = sql().rows.all(threadId) as RawRow[];
      return raw.map((row) => ({
        threadId,
        ns: row.ns,
        id: row.id,
        parentId: row.parentId ?? undefined,
        ts: parseTimestamp(row.ts),
        version: parseVersion(row.v),
        valueChannels: row.valueChannels ? (JSON.parse(row.valueChannels) as string[]) : [],
        versionedChannels: objectKeys(row.versionedChannels),
        deltaChannels: objectKeys(row.counters),
        parents: stringRecord(row.parents),
        writes: row.writes,
      }));
    },
    async deleteCheckpoints(threadId: string, keys: CheckpointKey[]): Promise<void> {
      if (keys.length === 0) return;
      const { deleteWrites, deleteCheckpoint } = sql();
      db.transaction(() => {
        for (const key of keys) {
          deleteWrites.run(threadId, key.ns, key.id);
          deleteCheckpoint.run(threadId, key.ns, key.id);
        }
      })();
      db.pragma("incremental_vacuum"); // returns freed pages to the file system when auto_vacuum is INCREMENTAL; a no-op otherwise
    },
    stats,
    async threads(): Promise<ThreadSummary[]> {
      sql();
      const rows = db
        .prepare(
          `SELECT c.thread_id AS threadId, count(*) AS checkpoints, coalesce(sum(length(c.checkpoint) + length(c.metadata)), 0) AS bytes,
             max(CASE WHEN c.checkpoint_ns = '' THEN c.checkpoint_id END) AS lastCheckpointId,
             max(CASE WHEN json_valid(CAST(c.checkpoint AS TEXT)) THEN json_extract(CAST(c.checkpoint AS TEXT), '$.ts') END) AS updatedAt,
             (SELECT count(*) FROM writes w WHERE w.thread_id = c.thread_id) AS writes,
             (SELECT coalesce(sum(length(w.value)), 0) FROM writes w WHERE w.thread_id = c.thread_id) AS writeBytes
           FROM checkpoints c GROUP BY c.thread_id`,
        )
        .all() as Array<{
        threadId: string;
        checkpoints: number;
        bytes: number;
        lastCheckpointId: string | null;
        updatedAt: string | null;
        writes: number;
        writeBytes: number;
      }>;
      return rows
        .map((row) => ({
          threadId: row.threadId,
          checkpoints: row.checkpoints,
          writes: row.writes,
          bytes: row.bytes + row.writeBytes,
          lastCheckpointId: row.lastCheckpointId ?? undefined,
          updatedAt: row.updatedAt ? parseTimestamp(row.updatedAt) : undefined,
        }))
        .sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
    },
  };
}
