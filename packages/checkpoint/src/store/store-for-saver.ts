import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { CheckpointStore } from "./checkpoint-store.js";
import { memoryStore } from "./memory-store.js";
import { postgresStore } from "./postgres-store.js";
import { saverBackend } from "./saver-backend.js";
import { sqliteStore } from "./sqlite-store.js";

const stores = new WeakMap<BaseCheckpointSaver, CheckpointStore>();

/** The row-level store under an official saver (SqliteSaver, PostgresSaver, MemorySaver); throws for other savers. */
export function storeForSaver(saver: BaseCheckpointSaver): CheckpointStore {
  const backend = saverBackend(saver);
  const known = stores.get(backend.saver);
  if (known) return known;
  const store =
    backend.kind === "sqlite"
      ? sqliteStore(backend.db, backend.ensureTables)
      : backend.kind === "postgres"
        ? postgresStore(backend.pool, backend.schema)
        : memoryStore(backend.saver);
  stores.set(backend.saver, store);
  return store;
}
