// Figures of a fleet run (test/support/fleet-scenario.ts): percentiles, the takeover time of each thread the killed
// process held, and where the time of a set of turns went (from the timings the workers print with each answer).

/** Where a turn's time went, as its worker measured it (test/support/fleet-turn-trace.ts), in milliseconds. */
export interface TurnTiming {
  leaseMs: number;
  queuedMs: number;
  runMs: number;
  modelMs: number;
  modelCalls: number;
  toolMs: number;
  checkpointWriteMs: number;
  checkpointWrites: number;
  checkpointReadMs: number;
  /** Checkpoint reads that reached the saver; milliseconds from the run's start to its first model call. */
  checkpointReads?: number;
  resumeMs?: number;
  /** Milliseconds with at least one of the turn's queries waiting for a pool connection; connections taken. */
  poolWaitMs: number;
  poolConnects: number;
  /** Checkpoint queries waiting for a pool connection in that process when the turn ended (a sample of the queue). */
  poolWaiting: number;
}

/** p50 and p95 of some milliseconds. */
export interface Spread {
  p50: number;
  p95: number;
}

/** The value at percentile `p` of ascending `sorted` (0 when empty). */
export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** p50/p95 of `values`. */
export function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/**
 * p50/p95 of each part of the turns' time: waiting for the client's turn to reach the worker and back (`clientMs`
 * minus the worker's), the lease, the scheduler's queue, the model calls, the tools, checkpoint reads and writes, and
 * the rest of the run (graph, middleware, the event loop busy with other turns).
 */
export function breakdown(turns: Array<{ ms: number; timing?: TurnTiming }>) {
  const timed = turns.filter((turn): turn is { ms: number; timing: TurnTiming } => turn.timing !== undefined);
  const part = (pick: (timing: TurnTiming, ms: number) => number) => spread(timed.map((t) => pick(t.timing, t.ms)));
  return {
    turns: timed.length,
    clientMs: part((_, ms) => ms),
    leaseMs: part((t) => t.leaseMs),
    queuedMs: part((t) => t.queuedMs),
    runMs: part((t) => t.runMs),
    modelMs: part((t) => t.modelMs),
    toolMs: part((t) => t.toolMs),
    checkpointWriteMs: part((t) => t.checkpointWriteMs),
    checkpointWrites: part((t) => t.checkpointWrites),
    checkpointReadMs: part((t) => t.checkpointReadMs),
    checkpointReads: part((t) => t.checkpointReads ?? 0),
    resumeMs: part((t) => t.resumeMs ?? -1),
    poolWaitMs: part((t) => t.poolWaitMs ?? 0),
    poolConnects: part((t) => t.poolConnects ?? 0),
    poolWaiting: part((t) => t.poolWaiting),
    otherInRunMs: part((t) => t.runMs - t.modelMs - t.toolMs - t.checkpointWriteMs - t.checkpointReadMs),
    outsideWorkerMs: part((t, ms) => ms - t.leaseMs - t.queuedMs - t.runMs),
  };
}

/**
 * Milliseconds from the kill to the first answer on each thread the killed process served (`homeOf(thread)` is it),
 * counting answers to turns sent after the kill or in flight then; a thread with no later answer is left out.
 */
export function takeoverTimes(
  answered: Array<{ thread: string; answeredAt: number }>,
  killAt: number | undefined,
  killedThreads: Set<string>,
): Map<string, number> {
  const first = new Map<string, number>();
  if (killAt === undefined) return first;
  for (const record of answered) {
    if (!killedThreads.has(record.thread) || record.answeredAt < killAt) continue;
    const ms = record.answeredAt - killAt;
    if (!first.has(record.thread) || ms < first.get(record.thread)!) first.set(record.thread, ms);
  }
  return first;
}
