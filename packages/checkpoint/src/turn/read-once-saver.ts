import { type BaseCheckpointSaver, type CheckpointTuple, copyCheckpoint } from "@langchain/langgraph-checkpoint";
import { DelegatingCheckpointSaver, type SaverConfig } from "../saver/delegating-checkpoint-saver.js";

/** LangGraph's config key through which a graph is lent the checkpointer its runs and state reads use. */
export const CHECKPOINTER_KEY = "__pregel_checkpointer";

/** The key of a read of a thread's latest checkpoint (no `checkpoint_id`), or undefined for any other read. */
function latestKey(config: SaverConfig): string | undefined {
  const configurable = config.configurable ?? {};
  if (configurable.checkpoint_id !== undefined || typeof configurable.thread_id !== "string") return undefined;
  return `${configurable.thread_id}\u0000${String(configurable.checkpoint_ns ?? "")}`;
}

/**
 * A copy of `tuple` its reader may change: LangGraph applies pending writes to the checkpoint it loads (its channel
 * versions and the versions each node saw), so each reader of a shared read gets its own checkpoint, metadata and
 * list of pending writes.
 */
function copyTuple(tuple: CheckpointTuple | undefined): CheckpointTuple | undefined {
  if (!tuple) return tuple;
  return {
    ...tuple,
    checkpoint: copyCheckpoint(tuple.checkpoint),
    ...(tuple.metadata ? { metadata: { ...tuple.metadata } } : {}),
    ...(tuple.pendingWrites ? { pendingWrites: [...tuple.pendingWrites] } : {}),
  };
}

/**
 * A saver for the span of one turn that reads a thread's latest checkpoint from the database once: the turn's status
 * lookup, createAgent's middleware-state lookup and the run's own load ask for the same tuple, and get the first
 * answer (each its own copy) until the turn writes to that thread (a `put`, `putWrites` or `deleteThread` drops it).
 * Only sound while this
 * process is the thread's one writer (a session lease), as `runTurnOnce` requires.
 */
export class ReadOnceSaver extends DelegatingCheckpointSaver {
  /** The first read of each thread's (and namespace's) latest checkpoint since the turn last wrote to it. */
  private readonly latest: Map<string, Promise<CheckpointTuple | undefined>>;
  /** Reads that went to the database (the rest were answered from the first). */
  databaseReads = 0;

  /** Awaited before each call that reaches the database (a step boundary: see `pauseForResumed`). */
  private readonly boundary: (() => Promise<void>) | undefined;

  constructor(inner: BaseCheckpointSaver, boundary?: () => Promise<void>) {
    super(inner);
    this.latest = new Map();
    this.boundary = boundary;
  }

  override getTuple(config: SaverConfig): Promise<CheckpointTuple | undefined> {
    const key = latestKey(config);
    if (key === undefined) return this.read(config);
    let found = this.latest.get(key);
    if (!found) {
      found = this.read(config);
      this.latest.set(key, found);
      found.catch(() => this.latest.delete(key));
    }
    return found.then(copyTuple);
  }

  override async put(...args: Parameters<BaseCheckpointSaver["put"]>) {
    this.forget(args[0]);
    await this.boundary?.();
    return super.put(...args);
  }

  override async putWrites(...args: Parameters<BaseCheckpointSaver["putWrites"]>) {
    this.forget(args[0]);
    await this.boundary?.();
    return super.putWrites(...args);
  }

  override deleteThread(threadId: string) {
    this.forget({ configurable: { thread_id: threadId } });
    return super.deleteThread(threadId);
  }

  private async read(config: SaverConfig): Promise<CheckpointTuple | undefined> {
    await this.boundary?.();
    this.databaseReads += 1;
    return this.inner.getTuple(config);
  }

  /** Drops every remembered read of the thread `config` writes to. */
  private forget(config: SaverConfig): void {
    const prefix = `${String(config.configurable?.thread_id)}\u0000`;
    for (const key of this.latest.keys()) if (key.startsWith(prefix)) this.latest.delete(key);
  }
}

/**
 * `config` lending `graph`'s checkpointer (or the one `config` already lends) wrapped in a ReadOnceSaver (awaiting
 * `boundary` before each call that reaches the database), or `config` unchanged when the graph has no checkpointer
 * object to wrap.
 */
export function readingOnce<C extends SaverConfig>(graph: unknown, config: C, boundary?: () => Promise<void>): C {
  const lent = config.configurable?.[CHECKPOINTER_KEY] as unknown;
  const own = (graph as { checkpointer?: unknown } | null)?.checkpointer;
  const saver = lent ?? own;
  if (!(saver instanceof Object) || typeof (saver as BaseCheckpointSaver).getTuple !== "function") return config;
  const once = new ReadOnceSaver(saver as BaseCheckpointSaver, boundary);
  return { ...config, configurable: { ...config.configurable, [CHECKPOINTER_KEY]: once } };
}
