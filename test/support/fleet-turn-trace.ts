// Where a fleet worker's turn spends its time (test/support/fleet-worker.ts): model calls and tool runs through
// LangChain callbacks, checkpoint reads and writes through a timing wrapper of the saver, per thread (a thread runs
// one turn at a time in a worker), and waits for a PostgreSQL pool connection through the pool's `connect` (the turn
// that asked is known from an AsyncLocalStorage the worker runs each turn in).
import { AsyncLocalStorage } from "node:async_hooks";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { SaverBackend } from "../../packages/checkpoint/src/store/saver-backend.js";

type Pool = Extract<SaverBackend, { kind: "postgres" }>["pool"];
type PoolClient = Awaited<ReturnType<Pool["connect"]>>;

/**
 * Milliseconds of one turn during which at least one call of each kind was in flight (overlapping calls count once),
 * and how many calls; printed with the turn's answer.
 */
export interface TurnTrace {
  modelMs: number;
  modelCalls: number;
  toolMs: number;
  checkpointWriteMs: number;
  checkpointWrites: number;
  checkpointReadMs: number;
  /** Reads of a checkpoint that reached the saver (runTurnOnce shares one read of the latest among its lookups). */
  checkpointReads: number;
  /**
   * Milliseconds from the run's start to its first model call: the graph resuming (the turn's status lookup, the
   * checkpoint load, createAgent's state lookup, middleware before the model); -1 when no model was called.
   */
  resumeMs: number;
  /** Milliseconds during which at least one of the turn's queries waited for a pool connection. */
  poolWaitMs: number;
  /** Connections the turn took from the pool (one per saver query or transaction). */
  poolConnects: number;
}
type Part = "modelMs" | "toolMs" | "checkpointWriteMs" | "checkpointReadMs" | "poolWaitMs";

const empty = (): TurnTrace => ({
  modelMs: 0,
  modelCalls: 0,
  toolMs: 0,
  checkpointWriteMs: 0,
  checkpointWrites: 0,
  checkpointReadMs: 0,
  checkpointReads: 0,
  resumeMs: -1,
  poolWaitMs: 0,
  poolConnects: 0,
});

/** Per-thread traces, a callback handler for the run's config, and a saver wrapper that times reads and writes. */
export function turnTracer() {
  const traces = new Map<string, TurnTrace>();
  /** When each thread's current run started (set by `started`). */
  const runStarts = new Map<string, number>();
  const trace = (threadId: unknown) => {
    const key = String(threadId);
    let found = traces.get(key);
    if (!found) traces.set(key, (found = empty()));
    return found;
  };
  // Per thread and part: calls in flight and since when at least one was.
  const inFlight = new Map<string, { count: number; since: number }>();
  const begin = (threadId: unknown, part: Part) => {
    const key = `${String(threadId)}\u0000${part}`;
    const entry = inFlight.get(key) ?? { count: 0, since: 0 };
    if (entry.count === 0) entry.since = Date.now();
    entry.count += 1;
    inFlight.set(key, entry);
  };
  const finish = (threadId: unknown, part: Part) => {
    const key = `${String(threadId)}\u0000${part}`;
    const entry = inFlight.get(key);
    if (!entry || entry.count === 0) return;
    entry.count -= 1;
    if (entry.count === 0) trace(threadId)[part] += Date.now() - entry.since;
  };
  /** Callbacks of one turn of `threadId` (model call and tool durations by run id). */
  const callbacks = (threadId: string) => {
    const open = new Set<string>();
    const start = (runId: string, part: Part) => {
      open.add(runId);
      begin(threadId, part);
    };
    const end = (runId: string, part: Part) => {
      if (open.delete(runId)) finish(threadId, part);
    };
    return [
      {
        handleChatModelStart: (_llm: unknown, _messages: unknown, runId: string) => {
          start(runId, "modelMs");
          const found = trace(threadId);
          found.modelCalls += 1;
          if (found.resumeMs < 0) found.resumeMs = Date.now() - (runStarts.get(threadId) ?? Date.now());
        },
        handleLLMEnd: (_output: unknown, runId: string) => end(runId, "modelMs"),
        handleLLMError: (_error: unknown, runId: string) => end(runId, "modelMs"),
        handleToolStart: (_tool: unknown, _input: unknown, runId: string) => start(runId, "toolMs"),
        handleToolEnd: (_output: unknown, runId: string) => end(runId, "toolMs"),
        handleToolError: (_error: unknown, runId: string) => end(runId, "toolMs"),
      },
    ];
  };
  /** The saver, its reads and writes timed into the trace of the config's thread. */
  const timed = (saver: BaseCheckpointSaver): BaseCheckpointSaver => {
    const fields: Record<string, "checkpointWriteMs" | "checkpointReadMs"> = {
      put: "checkpointWriteMs",
      putWrites: "checkpointWriteMs",
      getTuple: "checkpointReadMs",
    };
    return new Proxy(saver, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== "function") return value;
        const field = typeof property === "string" ? fields[property] : undefined;
        if (!field) return (value as (...args: unknown[]) => unknown).bind(target);
        return async (...args: unknown[]) => {
          const threadId = (args[0] as { configurable?: { thread_id?: unknown } } | undefined)?.configurable?.thread_id;
          begin(threadId, field);
          if (field === "checkpointWriteMs") trace(threadId).checkpointWrites += 1;
          else trace(threadId).checkpointReads += 1;
          try {
            return await (value as (...args: unknown[]) => Promise<unknown>).apply(target, args);
          } finally {
            finish(threadId, field);
          }
        };
      },
    });
  };
  const running = new AsyncLocalStorage<string>();
  /** Runs `turn` as `threadId`'s: the pool waits it (and what it starts) causes are counted to that thread. */
  const within = <T>(threadId: string, turn: () => Promise<T>): Promise<T> => running.run(threadId, turn);
  /** Times each `connect` of `pool` (pg's `query` goes through it too) into the trace of the turn running. */
  const timedPool = (pool: Pool): void => {
    const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
    (pool as unknown as { connect: unknown }).connect = (...args: unknown[]) => {
      const threadId = running.getStore();
      if (threadId === undefined) return connect(...args);
      begin(threadId, "poolWaitMs");
      trace(threadId).poolConnects += 1;
      const callback = args[0];
      if (typeof callback === "function")
        return connect((...results: unknown[]) => {
          finish(threadId, "poolWaitMs");
          return (callback as (...results: unknown[]) => unknown)(...results);
        });
      return (connect() as Promise<PoolClient>).finally(() => finish(threadId, "poolWaitMs"));
    };
  };
  /** Marks the start of `threadId`'s run (what `resumeMs` counts from), clearing what an earlier attempt left. */
  const started = (threadId: string): void => {
    traces.delete(threadId);
    runStarts.set(threadId, Date.now());
  };
  /** The trace of `threadId`'s turn so far, cleared for its next turn. */
  const take = (threadId: string): TurnTrace => {
    const found = traces.get(threadId) ?? empty();
    traces.delete(threadId);
    return found;
  };
  return { callbacks, timed, take, started, within, timedPool };
}
