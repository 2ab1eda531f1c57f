import type {
  BaseCheckpointSaver,
  ChannelVersions,
  Checkpoint,
  CheckpointMetadata,
  PendingWrite,
} from "@langchain/langgraph-checkpoint";
import { SessionLeaseLostError } from "../errors/session-lease-lost-error.js";
import { DelegatingCheckpointSaver, type SaverConfig } from "../saver/delegating-checkpoint-saver.js";
import { FENCE_REFUSAL, runFenced, type WriteFence } from "./write-fence.js";

/** What the leased saver needs of its lease. */
export interface LeaseGuard {
  readonly threadId: string;
  /** The owner and fencing token the database checks each write against. */
  readonly fence: WriteFence;
  /** Throws SessionLeaseLostError when the lease is known lost or released (no database round trip). */
  assertHeld(): void;
  /** Called when the database refused a write: the lease was taken over. */
  refused(error: SessionLeaseLostError): void;
}

/**
 * A saver whose writes to the leased session are fenced: each runs with the lease's owner and token, and the database
 * refuses it in the write's own transaction when the lease was taken over since (SessionLeaseLostError). Everything
 * else is delegated.
 */
export class LeasedCheckpointSaver extends DelegatingCheckpointSaver {
  private readonly lease: LeaseGuard;

  constructor(inner: BaseCheckpointSaver, lease: LeaseGuard) {
    super(inner);
    this.lease = lease;
  }

  private async fenced<T>(threadId: unknown, write: () => Promise<T>): Promise<T> {
    if (threadId !== this.lease.threadId) return write();
    this.lease.assertHeld();
    try {
      return await runFenced(this.lease.fence, write);
    } catch (error) {
      const refusal = SessionLeaseLostError.isInstance(error)
        ? error
        : String((error as { message?: unknown } | undefined)?.message).includes(FENCE_REFUSAL)
          ? new SessionLeaseLostError({
              threadId: this.lease.threadId,
              reason: "the database refused the write: the lease was taken over",
            })
          : undefined;
      if (!refusal) throw error;
      this.lease.refused(refusal);
      throw refusal;
    }
  }

  override put(
    config: SaverConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    versions: ChannelVersions,
  ): Promise<SaverConfig> {
    return this.fenced(config.configurable?.thread_id, () => this.inner.put(config, checkpoint, metadata, versions));
  }

  override putWrites(config: SaverConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    return this.fenced(config.configurable?.thread_id, () => this.inner.putWrites(config, writes, taskId, taskPath));
  }

  override deleteThread(threadId: string): Promise<void> {
    return this.fenced(threadId, () => this.inner.deleteThread(threadId));
  }
}
