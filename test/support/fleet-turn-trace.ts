// Where a fleet worker's turn spends its time (test/support/fleet-worker.ts): model calls and tool runs through
// LangChain callbacks, checkpoint reads and writes through a timing wrapper of the saver, per thread (a thread runs
// one turn at a time in a worker).
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";

/** Milliseconds one turn spent in each part (summed over its calls), printed with the turn's answer. */
export interface TurnTrace {
  modelMs: number;
  modelCalls: number;
  toolMs: number;
  checkpointWriteMs: number;
  checkpointReadMs: number;
}

const empty = (): TurnTrace => ({ modelMs: 0, modelCalls: 0, toolMs: 0, checkpointWriteMs: 0, checkpointReadMs: 0 });

/** Per-thread traces, a callback handler for the run's config, and a saver wrapper that times reads and writes. */
export function turnTracer() {
  const traces = new Map<string, TurnTrace>();
  const trace = (threadId: unknown) => {
    const key = String(threadId);
    let found = traces.get(key);
    if (!found) traces.set(key, (found = empty()));
    return found;
  };
  /** Callbacks of one turn of `threadId` (model call and tool durations by run id). */
  const callbacks = (threadId: string) => {
    const started = new Map<string, number>();
    const end = (runId: string, field: "modelMs" | "toolMs") => {
      const at = started.get(runId);
      if (at === undefined) return;
      started.delete(runId);
      trace(threadId)[field] += Date.now() - at;
    };
    return [
      {
        handleChatModelStart: (_llm: unknown, _messages: unknown, runId: string) => {
          started.set(runId, Date.now());
          trace(threadId).modelCalls += 1;
        },
        handleLLMEnd: (_output: unknown, runId: string) => end(runId, "modelMs"),
        handleLLMError: (_error: unknown, runId: string) => end(runId, "modelMs"),
        handleToolStart: (_tool: unknown, _input: unknown, runId: string) => void started.set(runId, Date.now()),
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
          const at = Date.now();
          try {
            return await (value as (...args: unknown[]) => Promise<unknown>).apply(target, args);
          } finally {
            const config = args[0] as { configurable?: { thread_id?: unknown } } | undefined;
            trace(config?.configurable?.thread_id)[field] += Date.now() - at;
          }
        };
      },
    });
  };
  /** The trace of `threadId`'s turn so far, cleared for its next turn. */
  const take = (threadId: string): TurnTrace => {
    const found = traces.get(threadId) ?? empty();
    traces.delete(threadId);
    return found;
  };
  return { callbacks, timed, take };
}
