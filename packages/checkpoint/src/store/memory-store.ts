import type { MemorySaver } from "@langchain/langgraph-checkpoint";
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

const decoder = new TextDecoder();

function parseJson(bytes: Uint8Array): Record<string, unknown> {
  try {
    return JSON.parse(decoder.decode(bytes)) as Record<string, unknown>;
  } catch {
    return {};
  }
}

// MemorySaver keeps `storage[thread][ns][id] = [checkpoint, metadata, parentId]` and `writes[JSON([thread, ns, id])][task,idx] = [task, channel, value, path]`.
function writeKey(threadId: string, ns: string, id: string): string {
  return JSON.stringify([threadId, ns, id]);
}

/** A CheckpointStore over a `MemorySaver`'s in-process maps. */
export function memoryStore(saver: MemorySaver): CheckpointStore {
  const writesOf = (threadId: string, ns: string, id: string) =>
    Object.values(saver.writes[writeKey(threadId, ns, id)] ?? {});

  const threadFigures = (threadId: string) => {
    let checkpoints = 0;
    let writes = 0;
    let bytes = 0;
    let lastCheckpointId: string | undefined;
    let updatedAt: number | undefined;
    for (const [ns, byId] of Object.entries(saver.storage[threadId] ?? {})) {
      for (const [id, [checkpoint, metadata]] of Object.entries(byId)) {
        checkpoints += 1;
        bytes += checkpoint.byteLength + metadata.byteLength;
        for (const write of writesOf(threadId, ns, id)) {
          writes += 1;
          bytes += write[2].byteLength;
        }
        if (ns === "" && (lastCheckpointId === undefined || id > lastCheckpointId)) lastCheckpointId = id;
        const ts = parseTimestamp(parseJson(checkpoint).ts);
        if (updatedAt === undefined || ts > updatedAt) updatedAt = ts;
      }
    }
    return { checkpoints, writes, bytes, lastCheckpointId, updatedAt };
  };

  return {
    kind: "memory",
    async rows(threadId: string): Promise<CheckpointRow[]> {
      const rows: CheckpointRow[] = [];
      for (const [ns, byId] of Object.entries(saver.storage[threadId] ?? {})) {
        for (const [id, [checkpoint, metadata, parentId]] of Object.entries(byId)) {
          const parsed = parseJson(checkpoint);
          const meta = parseJson(metadata);
          rows.push({
            threadId,
            ns,
            id,
            parentId,
            ts: parseTimestamp(parsed.ts),
            version: parseVersion(parsed.v),
            valueChannels: objectKeys(parsed.channel_values),
            versionedChannels: objectKeys(parsed.channel_versions),
            deltaChannels: objectKeys(meta.counters_since_delta_snapshot),
            parents: stringRecord(meta.parents),
            writes: writesOf(threadId, ns, id).length,
          });
        }
      }
      return rows;
    },
    async deleteCheckpoints(threadId: string, keys: CheckpointKey[]): Promise<void> {
      for (const { ns, id } of keys) {
        delete saver.storage[threadId]?.[ns]?.[id];
        delete saver.writes[writeKey(threadId, ns, id)];
      }
    },
    async stats(threadId?: string): Promise<StorageStats> {
      const ids = threadId === undefined ? Object.keys(saver.storage) : [threadId];
      const total = { threads: 0, checkpoints: 0, writes: 0, bytes: 0 };
      for (const id of ids) {
        const figures = threadFigures(id);
        if (figures.checkpoints === 0) continue;
        total.threads += 1;
        total.checkpoints += figures.checkpoints;
        total.writes += figures.writes;
        total.bytes += figures.bytes;
      }
      return total;
    },
    async threads(): Promise<ThreadSummary[]> {
      return Object.keys(saver.storage)
        .map((threadId) => ({ threadId, ...threadFigures(threadId) }))
        .filter((summary) => summary.checkpoints > 0)
        .map(({ threadId, checkpoints, writes, bytes, lastCheckpointId, updatedAt }) => ({
          threadId,
          checkpoints,
          writes,
          bytes,
          lastCheckpointId,
          updatedAt,
        }))
        .sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
    },
  };
}
