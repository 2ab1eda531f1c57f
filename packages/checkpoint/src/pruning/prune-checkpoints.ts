import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { storeForSaver } from "../store/store-for-saver.js";
import { type KeepReason, planPruning, type PruningPolicy } from "./plan-pruning.js";

/** What one prune did. */
export interface PruneReport {
  /** Threads looked at. */
  threads: number;
  /** Checkpoints deleted (with their writes). */
  removed: number;
  /** Checkpoints left, by the reason they stay. */
  kept: Record<KeepReason, number>;
}

/**
 * Deletes the checkpoints `policy` lets go from one thread (or every thread), never one a resume needs (see `planPruning`).
 * Works on SqliteSaver, PostgresSaver and MemorySaver through their tables; other savers throw CheckpointerError.
 * @param saver An official saver, e.g. from `createCheckpointer`.
 * @param policy `keepLast` per thread and namespace and/or `maxAgeMs`.
 * @param threadId Only this thread; every thread when omitted.
 * @example await pruneCheckpoints(saver, { keepLast: 20 }, "session-1");
 */
export async function pruneCheckpoints(
  saver: BaseCheckpointSaver,
  policy: PruningPolicy,
  threadId?: string,
  now: number = Date.now(),
): Promise<PruneReport> {
  const store = storeForSaver(saver);
  const threadIds = threadId === undefined ? (await store.threads()).map((summary) => summary.threadId) : [threadId];
  const report: PruneReport = {
    threads: 0,
    removed: 0,
    kept: { policy: 0, latest: 0, "pending-writes": 0, "delta-ancestor": 0, "subgraph-parent": 0, "sends-parent": 0 },
  };
  for (const id of threadIds) {
    const plan = planPruning(await store.rows(id), policy, now);
    await store.deleteCheckpoints(id, plan.remove);
    report.threads += 1;
    report.removed += plan.remove.length;
    for (const [reason, count] of Object.entries(plan.kept)) report.kept[reason as KeepReason] += count;
  }
  return report;
}
