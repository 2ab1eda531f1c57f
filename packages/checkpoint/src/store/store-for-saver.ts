import { BaseCheckpointSaver, type MemorySaver } from "@langchain/langgraph-checkpoint";
import type Database from "better-sqlite3";
import type pg from "pg";
import { CheckpointerError } from "../errors/checkpointer-error.js";
import type { CheckpointStore } from "./checkpoint-store.js";
import { memoryStore } from "./memory-store.js";
import { postgresStore } from "./postgres-store.js";
import { sqliteStore } from "./sqlite-store.js";

const stores = new WeakMap<BaseCheckpointSaver, CheckpointStore>();

// The official savers keep their connection in fields (PostgresSaver's are TypeScript-private but plain properties at run time).
interface SaverInternals {
  db?: Database.Database;
  setup?: () => unknown;
  pool?: pg.Pool;
  options?: { schema?: string };
  storage?: unknown;
  writes?: unknown;
}

function isSqlite(saver: SaverInternals): saver is SaverInternals & { db: Database.Database } {
  return typeof saver.db?.prepare === "function" && typeof saver.db?.transaction === "function";
}

function isPostgres(saver: SaverInternals): saver is SaverInternals & { pool: pg.Pool } {
  return typeof saver.pool?.connect === "function" && typeof saver.pool?.query === "function";
}

/** The row-level store under an official saver (SqliteSaver, PostgresSaver, MemorySaver); throws for other savers. */
export function storeForSaver(saver: BaseCheckpointSaver): CheckpointStore {
  const inner = (saver as { inner?: unknown }).inner;
  if (inner instanceof BaseCheckpointSaver) return storeForSaver(inner); // a withPruning wrapper: use the saver it wraps
  const known = stores.get(saver);
  if (known) return known;
  const internals = saver as unknown as SaverInternals;
  let store: CheckpointStore;
  if (isSqlite(internals)) store = sqliteStore(internals.db, () => internals.setup?.());
  else if (isPostgres(internals)) store = postgresStore(internals.pool, internals.options?.schema ?? "public");
  else if (internals.storage && typeof internals.storage === "object" && internals.writes && typeof internals.writes === "object") store = memoryStore(saver as MemorySaver);
  else {
    throw new CheckpointerError({
      url: saver.constructor.name,
      reason: "unsupported-saver",
      message: `Cannot prune or measure a ${saver.constructor.name}: only SqliteSaver, PostgresSaver and MemorySaver are supported.`,
    });
  }
  stores.set(saver, store);
  return store;
}
