import type Database from "better-sqlite3";
import { currentFence, FENCE_REFUSAL } from "./write-fence.js";

const installed = new WeakSet<Database.Database>();

/**
 * Fences this connection's checkpoint writes in SQLite itself: temporary triggers (this connection only) on the
 * saver's `checkpoints` and `writes` tables abort an insert (or a checkpoint delete) made under a lease
 * (`runFenced`) unless the lease row still names that owner and token. The check runs inside the writing statement,
 * under SQLite's write lock, so a takeover cannot slip between check and write.
 * @param db The saver's connection (tables already created).
 * @param table The lease table.
 */
export function installSqliteFence(db: Database.Database, table: string): void {
  if (installed.has(db)) return;
  db.function("skillgraph_lease_fence", { deterministic: false }, (threadId: unknown) => {
    const fence = currentFence();
    return fence && fence.threadId === threadId ? `${fence.owner}:${fence.token}` : null;
  });
  const refused = (row: "NEW" | "OLD") =>
    `skillgraph_lease_fence(${row}.thread_id) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM main.${table} l
       WHERE l.thread_id = ${row}.thread_id AND l.owner || ':' || l.token = skillgraph_lease_fence(${row}.thread_id))`;
  const abort = `BEGIN SELECT RAISE(ABORT, '${FENCE_REFUSAL}'); END`;
  db.exec(`
    CREATE TEMP TRIGGER IF NOT EXISTS skillgraph_fence_checkpoints BEFORE INSERT ON main.checkpoints WHEN ${refused("NEW")} ${abort};
    CREATE TEMP TRIGGER IF NOT EXISTS skillgraph_fence_writes BEFORE INSERT ON main.writes WHEN ${refused("NEW")} ${abort};
    CREATE TEMP TRIGGER IF NOT EXISTS skillgraph_fence_deletes BEFORE DELETE ON main.checkpoints WHEN ${refused("OLD")} ${abort};
  `);
  installed.add(db);
}
