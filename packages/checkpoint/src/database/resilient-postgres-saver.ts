import type {
  ChannelVersions,
  Checkpoint,
  CheckpointMetadata,
  CheckpointTuple,
  PendingWrite,
} from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type pg from "pg";
import { type RetryTarget, retryOnceOnConnectionLoss } from "./retry-once.js";
import { serialisedSetup } from "./serialised-setup.js";

type Config = Parameters<PostgresSaver["getTuple"]>[0];
type ListOptions = Parameters<PostgresSaver["list"]>[1];

/**
 * The official `PostgresSaver`, with every operation retried once on a new connection when the first one was lost
 * (server restart, failover, idle cut). Each operation is idempotent: reads; `put` / `putWrites` are one transaction of
 * upserts keyed by checkpoint id (a lost COMMIT either landed, and the retry rewrites the same rows, or did not, and the
 * retry writes them); `deleteThread` deletes. A second loss is a CheckpointerError `connection-lost`. `setup()` runs
 * under the database's set-up lock, so processes starting together on a fresh database do not race in the migrations.
 */
export class ResilientPostgresSaver extends PostgresSaver {
  private readonly retryTarget: RetryTarget;
  private readonly setupPool: pg.Pool;

  constructor(pool: pg.Pool, options: { schema: string }, retryTarget: RetryTarget) {
    super(pool, undefined, options);
    this.retryTarget = retryTarget;
    this.setupPool = pool;
  }

  override setup(): Promise<void> {
    return serialisedSetup(this.setupPool, () => super.setup());
  }

  override getTuple(config: Config): Promise<CheckpointTuple | undefined> {
    return retryOnceOnConnectionLoss(`a checkpoint read (thread ${threadOf(config)})`, this.retryTarget, () =>
      super.getTuple(config),
    );
  }

  override async *list(config: Config, options?: ListOptions): AsyncGenerator<CheckpointTuple> {
    // The saver reads all rows with its first query, before yielding: a loss there is retried; later ones pass through.
    const attempt = async () => {
      const buffered: CheckpointTuple[] = [];
      const source = super.list(config, options);
      const first = await source.next();
      if (!first.done) buffered.push(first.value);
      return { source, buffered, done: first.done === true };
    };
    const { source, buffered, done } = await retryOnceOnConnectionLoss(
      `a checkpoint listing (thread ${threadOf(config)})`,
      this.retryTarget,
      attempt,
    );
    yield* buffered;
    if (!done) yield* source;
  }

  override put(
    config: Config,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<Config> {
    return retryOnceOnConnectionLoss(`a checkpoint write (thread ${threadOf(config)})`, this.retryTarget, () =>
      super.put(config, checkpoint, metadata, newVersions),
    );
  }

  override putWrites(config: Config, writes: PendingWrite[], taskId: string): Promise<void> {
    return retryOnceOnConnectionLoss(`a pending-writes write (thread ${threadOf(config)})`, this.retryTarget, () =>
      super.putWrites(config, writes, taskId),
    );
  }

  override deleteThread(threadId: string): Promise<void> {
    return retryOnceOnConnectionLoss(`deleting thread ${threadId}`, this.retryTarget, () =>
      super.deleteThread(threadId),
    );
  }
}

function threadOf(config: Config): string {
  return String(config.configurable?.thread_id ?? "?");
}
