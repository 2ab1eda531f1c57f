// The thread records (id + metadata, incl. the graph a thread runs on) the embed server needs, in one JSON file,
// rewritten atomically (temp file + rename) on every change. Checkpoints live in the checkpointer, not here.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

type Metadata = Record<string, unknown>;
interface ThreadRecord {
  thread_id: string;
  metadata: Metadata;
  created_at: string;
  updated_at: string;
}

/** A `ThreadSaver` for `createEmbedServer` that survives restarts. */
export function fileThreads(path: string) {
  let threads: Record<string, ThreadRecord> = {};
  try {
    threads = JSON.parse(readFileSync(path, "utf8")) as Record<string, ThreadRecord>;
  } catch {
    threads = {};
  }
  const save = () => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.tmp`, JSON.stringify(threads));
    renameSync(`${path}.tmp`, path);
  };
  return {
    async get(id: string) {
      const thread = threads[id];
      if (!thread) throw Object.assign(new Error(`Thread ${id} not found`), { status: 404 });
      return thread;
    },
    async set(id: string, { kind, metadata }: { kind: "put" | "patch"; metadata?: Metadata }) {
      const now = new Date().toISOString();
      const previous = threads[id];
      threads[id] = {
        thread_id: id,
        metadata: kind === "patch" ? { ...previous?.metadata, ...metadata } : { ...metadata },
        created_at: previous?.created_at ?? now,
        updated_at: now,
      };
      save();
      return threads[id];
    },
    async delete(id: string) {
      delete threads[id];
      save();
    },
  };
}
