/** What pruning needs to know about one stored checkpoint, read without deserializing channel values. */
export interface CheckpointRow {
  threadId: string;
  /** Checkpoint namespace: "" for the root graph, `node:taskId` (joined by `|`) for subgraphs. */
  ns: string;
  id: string;
  parentId: string | undefined;
  /** Creation time (ms since epoch), from the checkpoint's `ts`. */
  ts: number;
  /**
   * Checkpoint format version (`v`; 4 since LangGraph 0.3). Savers rebuild the pending sends of a `v < 4` checkpoint from
   * its parent's writes, so pruning keeps that parent. Unreadable: 4.
   */
  version: number;
  /** Channels with a version in this checkpoint's `channel_versions` (written at least once on this branch). */
  versionedChannels: string[];
  /** Channels with a value (or a DeltaSnapshot) stored in this checkpoint's `channel_values`. */
  valueChannels: string[];
  /** Delta channels not snapshotted since an ancestor: keys of the metadata `counters_since_delta_snapshot`. */
  deltaChannels: string[];
  /** Parent-graph checkpoint ids by namespace (metadata `parents`), set on subgraph checkpoints. */
  parents: Record<string, string>;
  /** Number of pending writes stored under this checkpoint. */
  writes: number;
}

/** Storage figures for one thread or a whole database. */
export interface StorageStats {
  threads: number;
  checkpoints: number;
  writes: number;
  /** Bytes of serialized checkpoints, metadata, channel blobs and writes (payload only, no index or page overhead). */
  bytes: number;
}

/** Figures for one thread, as `sessions list` shows them. */
export interface ThreadSummary {
  threadId: string;
  checkpoints: number;
  writes: number;
  bytes: number;
  /** Id of the newest root-namespace checkpoint. */
  lastCheckpointId: string | undefined;
  /** Time of the newest checkpoint (ms since epoch). */
  updatedAt: number | undefined;
}

/** A checkpoint to delete. */
export interface CheckpointKey {
  ns: string;
  id: string;
}

/** Backend access the official savers do not offer: row listing, per-checkpoint delete, sizes. */
export interface CheckpointStore {
  readonly kind: "sqlite" | "postgres" | "memory";
  /** Lightweight rows of one thread, every namespace. */
  rows(threadId: string): Promise<CheckpointRow[]>;
  /** Deletes these checkpoints with their writes (and, on PostgreSQL, blobs no remaining checkpoint references), in one transaction. */
  deleteCheckpoints(threadId: string, keys: CheckpointKey[]): Promise<void>;
  /** Figures for one thread, or for every thread when `threadId` is undefined. */
  stats(threadId?: string): Promise<StorageStats>;
  /** One summary per thread, newest first. */
  threads(): Promise<ThreadSummary[]>;
}

/** Parses a checkpoint `ts` (ISO string) into ms; 0 when absent or unreadable. */
export function parseTimestamp(value: unknown): number {
  if (typeof value !== "string") return 0;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? 0 : ms;
}

/** A checkpoint format version `v` from JSON: the number, or 4 (no migration needed) when absent or unreadable. */
export function parseVersion(value: unknown): number {
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : 4;
}

/** Keys of a JSON object given as text or a value; [] for anything else. */
export function objectKeys(value: unknown): string[] {
  const parsed = typeof value === "string" ? safeParse(value) : value;
  return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? Object.keys(parsed) : [];
}

/** A string-to-string record from JSON text or a value ({} otherwise). */
export function stringRecord(value: unknown): Record<string, string> {
  const parsed = typeof value === "string" ? safeParse(value) : value;
  const out: Record<string, string> = {};
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
    for (const [key, entry] of Object.entries(parsed)) if (typeof entry === "string") out[key] = entry;
  }
  return out;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
