import type {
  BaseCheckpointSaver,
  ChannelVersions,
  Checkpoint,
  CheckpointMetadata,
} from "@langchain/langgraph-checkpoint";
import { DelegatingCheckpointSaver, type SaverConfig } from "../saver/delegating-checkpoint-saver.js";
import type { StorageStats } from "../store/checkpoint-store.js";
import { storeForSaver } from "../store/store-for-saver.js";
import { type PruneReport, pruneCheckpoints } from "./prune-checkpoints.js";
import { type PruningOptions, type ResolvedPruningOptions, resolvePruningOptions } from "./pruning-options.js";

/** A saver that delegates every call to an official saver and adds `prune()` and `stats()` (and optional pruning on write). */
export class PruningCheckpointSaver extends DelegatingCheckpointSaver {
  private readonly resolved: ResolvedPruningOptions;
  private readonly writesSincePrune = new Map<string, number>();
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(inner: BaseCheckpointSaver, options: PruningOptions) {
    super(inner);
    this.resolved = resolvePruningOptions(options);
    storeForSaver(inner); // fails now, not at the first prune, for a saver it cannot prune
  }

  /** Stores the checkpoint in the inner saver; every `pruneEvery` writes of a thread, prunes it by the policy. */
  override async put(
    config: SaverConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<SaverConfig> {
    const saved = await this.inner.put(config, checkpoint, metadata, newVersions);
    const threadId = saved.configurable?.thread_id as string | undefined;
    const ns = (saved.configurable?.checkpoint_ns as string | undefined) ?? "";
    if (this.resolved.pruneEvery > 0 && threadId !== undefined && ns === "") {
      const count = (this.writesSincePrune.get(threadId) ?? 0) + 1;
      if (count >= this.resolved.pruneEvery) {
        this.writesSincePrune.set(threadId, 0);
        await this.prune(threadId);
      } else this.writesSincePrune.set(threadId, count);
    }
    return saved;
  }

  /** Deletes a thread in the inner saver and forgets its write count. */
  override deleteThread(threadId: string): Promise<void> {
    this.writesSincePrune.delete(threadId);
    return this.inner.deleteThread(threadId);
  }

  /** Deletes what the policy lets go from one thread (or all), keeping everything a resume needs; one prune per thread at a time. */
  async prune(threadId?: string): Promise<PruneReport> {
    const key = threadId ?? "\u0000all";
    const previous = this.running.get(key) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(() => pruneCheckpoints(this.inner, this.resolved.policy, threadId));
    this.running.set(key, next);
    try {
      return await next;
    } finally {
      if (this.running.get(key) === next) this.running.delete(key);
    }
  }

  /** Rows and payload bytes of one thread, or of the whole database. */
  stats(threadId?: string): Promise<StorageStats> {
    return storeForSaver(this.inner).stats(threadId);
  }
}

/**
 * Wraps an official saver (SqliteSaver, PostgresSaver, MemorySaver) so its storage stays bounded: `prune()` on demand or
 * on write deletes checkpoints beyond `keepLast` per namespace or older than `maxAgeMs`, never one a resume needs.
 * @param saver The saver to wrap, e.g. from `createCheckpointer`.
 * @param options `keepLast`, `maxAgeMs` (at least one) and `onWrite`.
 * @default onWrite false
 * @example
 * const saver = withPruning(await createCheckpointer("sqlite:.skillgraph/sessions.db"), { keepLast: 20, onWrite: { every: 10 } });
 * const graph = builder.compile({ checkpointer: saver });
 */
export function withPruning(saver: BaseCheckpointSaver, options: PruningOptions): PruningCheckpointSaver {
  return new PruningCheckpointSaver(saver, options);
}
