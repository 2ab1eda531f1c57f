import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";

/** The config argument of a saver call. */
export type SaverConfig = Parameters<BaseCheckpointSaver["getTuple"]>[0];
type ListOptions = Parameters<BaseCheckpointSaver["list"]>[1];
type DeltaHistoryOptions = Parameters<BaseCheckpointSaver["getDeltaChannelHistory"]>[0];

/**
 * A saver that passes every call to the saver it wraps (`inner`): the base of this package's decorators, which
 * override only what they add to. `saverBackend` and `closeCheckpointer` find the official saver through `inner`.
 */
export abstract class DelegatingCheckpointSaver extends BaseCheckpointSaver {
  /** The decorated saver. */
  readonly inner: BaseCheckpointSaver;

  protected constructor(inner: BaseCheckpointSaver) {
    super(inner.serde);
    this.inner = inner;
  }

  /** The inner saver's checkpoint for `config`. */
  getTuple(config: SaverConfig): Promise<CheckpointTuple | undefined> {
    return this.inner.getTuple(config);
  }

  /** The inner saver's checkpoints, newest first. */
  list(config: SaverConfig, options?: ListOptions): AsyncGenerator<CheckpointTuple> {
    return this.inner.list(config, options);
  }

  /** Stores a checkpoint in the inner saver. */
  put(
    config: SaverConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    versions: ChannelVersions,
  ): Promise<SaverConfig> {
    return this.inner.put(config, checkpoint, metadata, versions);
  }

  /** Stores pending writes in the inner saver. */
  putWrites(config: SaverConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    return this.inner.putWrites(config, writes, taskId, taskPath);
  }

  /** Deletes a thread's checkpoints and writes in the inner saver. */
  deleteThread(threadId: string): Promise<void> {
    return this.inner.deleteThread(threadId);
  }

  /** The inner saver's history of a delta channel. */
  override getDeltaChannelHistory(options: DeltaHistoryOptions) {
    return this.inner.getDeltaChannelHistory(options);
  }

  /** The inner saver's next channel version. */
  override getNextVersion(current: number | undefined): number {
    return this.inner.getNextVersion(current);
  }
}
