import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { StorageStats, ThreadSummary } from "../store/checkpoint-store.js";
import { storeForSaver } from "../store/store-for-saver.js";

/** Every stored session (thread) with its checkpoint and write counts and payload bytes, most recently updated first. */
export function listSessions(saver: BaseCheckpointSaver): Promise<ThreadSummary[]> {
  return storeForSaver(saver).threads();
}

/** Rows and payload bytes of one thread, or of the whole database (`{ threads, checkpoints, writes, bytes }`). */
export function checkpointStats(saver: BaseCheckpointSaver, threadId?: string): Promise<StorageStats> {
  return storeForSaver(saver).stats(threadId);
}
