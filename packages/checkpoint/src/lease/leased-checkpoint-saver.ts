import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";
import type { SessionLease } from "./session-lease.js";

type Config = Parameters<BaseCheckpointSaver["getTuple"]>[0];
type ListOptions = Parameters<BaseCheckpointSaver["list"]>[1];
type DeltaHistoryOptions = Parameters<BaseCheckpointSaver["getDeltaChannelHistory"]>[0];

/** A saver that checks a session lease before every write to that session and delegates everything else. */
export class LeasedCheckpointSaver extends BaseCheckpointSaver {
  /** The decorated saver. */
  readonly inner: BaseCheckpointSaver;
  private readonly lease: Pick<SessionLease, "threadId" | "assertHeld">;

  constructor(inner: BaseCheckpointSaver, lease: Pick<SessionLease, "threadId" | "assertHeld">) {
    super(inner.serde);
    this.inner = inner;
    this.lease = lease;
  }

  private check(config: Config): void {
    if (config.configurable?.thread_id === this.lease.threadId) this.lease.assertHeld();
  }

  getTuple(config: Config): Promise<CheckpointTuple | undefined> {
    return this.inner.getTuple(config);
  }

  list(config: Config, options?: ListOptions): AsyncGenerator<CheckpointTuple> {
    return this.inner.list(config, options);
  }

  async put(
    config: Config,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    versions: ChannelVersions,
  ): Promise<Config> {
    this.check(config);
    return this.inner.put(config, checkpoint, metadata, versions);
  }

  async putWrites(config: Config, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    this.check(config);
    return this.inner.putWrites(config, writes, taskId, taskPath);
  }

  async deleteThread(threadId: string): Promise<void> {
    if (threadId === this.lease.threadId) this.lease.assertHeld();
    return this.inner.deleteThread(threadId);
  }

  override getDeltaChannelHistory(options: DeltaHistoryOptions) {
    return this.inner.getDeltaChannelHistory(options);
  }

  override getNextVersion(current: number | undefined): number {
    return this.inner.getNextVersion(current);
  }
}
