import { runWithPriority } from "../database/pool-priority.js";
import { TurnsBusyError } from "../errors/turns-busy-error.js";
import { InvalidOptionsError, parseOptions } from "../internal/core.js";
import { createPriorityGate, runYieldingTo } from "./priority-gate.js";
import { turnSchedulerOptionsSchema, type TurnSchedulerOptions } from "./turn-scheduler-options.js";

/**
 * `resumed`: a turn of a thread this process just took over from a dead or stalled holder, or one the client marks as
 * a retry of a turn that got no answer; it waits before every `normal` turn.
 */
export type TurnPriority = "resumed" | "normal";

/**
 * Runs turns at most `concurrency` at once (resumed ones up to `resumedHeadroom` more), resumed ones first, refusing
 * what would wait beyond `maxQueued`.
 */
export interface TurnScheduler {
  /**
   * Runs `turn` when a slot is free and no turn of higher (or equal, earlier) priority waits; resolves or rejects as
   * it does. Rejects at once with TurnsBusyError, without calling `turn`, when `maxQueued` turns already wait (a
   * resumed turn then takes the place of the newest waiting normal one, which is refused instead), or, with
   * `admission: "refuse"`, when a normal turn cannot start at once (a resumed turn then always waits its turn).
   */
  run<T>(turn: () => Promise<T>, options?: { priority?: TurnPriority }): Promise<T>;
  /** Turns running now. */
  readonly running: number;
  /** Turns waiting now. */
  readonly queued: number;
  /** With `pauseForResumed`: step boundaries of running normal turns waiting for the resumed turns to end, now. */
  readonly paused: number;
}

interface Waiting {
  start: () => void;
  refuse: (error: TurnsBusyError) => void;
}

/** Mean turn time assumed before any turn has ended (the retry-after hint of the first refusals). */
const FIRST_TURN_MS = 1000;

/** The retry-after hint: the recent mean turn time, longer by the share of a slot each waiting turn needs. */
function retryAfter(meanTurnMs: number, queued: number, concurrency: number): number {
  return Math.min(60_000, Math.max(100, Math.round(meanTurnMs * (1 + queued / concurrency))));
}

/**
 * A per-process turn scheduler (admission control): at most `concurrency` turns run at once (plus up to
 * `resumedHeadroom` resumed ones), waiting turns start in priority order (`resumed` before `normal`, first come first
 * served within each), and a turn that would make more than `maxQueued` wait is refused at once with TurnsBusyError
 * instead of queueing without bound; with `resumedAlone`, no normal turn starts while a resumed one runs or waits.
 * With `admission: "refuse"` a normal turn never waits: past `concurrency` turns in flight it is refused at once
 * (TurnsBusyError with `retryAfterMs`), and a resumed turn is always admitted, ahead of the others.
 * Resumed turns run inside `runWithPriority`: their PostgreSQL queries may take the pool connections
 * `createCheckpointer`'s `reservedConnections` keeps. With `pauseForResumed`, normal turns already running (through
 * `runTurnOnce`) also wait at their next step boundary (a checkpoint read or write, a graph node, a model or tool
 * call) while a resumed turn runs, and go on when the last resumed turn ends. Use it so a thread this process just
 * took over is answered first instead of competing for the CPU and the database with every other turn.
 * @param options `concurrency` (default 8), `maxQueued` (default 64), `resumedHeadroom` (default 0), `resumedAlone`
 *   (default false), `admission` (default "queue"), `pauseForResumed` (default false)
 * @example
 * const turns = createTurnScheduler({ concurrency: 8, admission: "refuse" });
 * const priority = lease.tookOver ? "resumed" : "normal";
 * const result = await turns.run(() => runTurnOnce(agent, input, config), { priority }); // TurnsBusyError: retry later
 */
export function createTurnScheduler(options: TurnSchedulerOptions = {}): TurnScheduler {
  const { concurrency, maxQueued, resumedHeadroom, resumedAlone, admission, pauseForResumed } = parseOptions(
    turnSchedulerOptionsSchema,
    options,
  );
  const refuse = admission === "refuse";
  const limit: Record<TurnPriority, number> = { resumed: concurrency + resumedHeadroom, normal: concurrency };
  const queues: Record<TurnPriority, Waiting[]> = { resumed: [], normal: [] };
  let running = 0;
  let runningResumed = 0;
  let meanTurnMs = FIRST_TURN_MS;
  // Closed while a resumed turn runs: normal turns run through `runTurnOnce` wait at their next step boundary.
  const gate = pauseForResumed ? createPriorityGate() : undefined;
  const execute = <T>(turn: () => Promise<T>, resumed: boolean): Promise<T> => {
    if (!gate) return resumed ? runWithPriority(turn) : turn();
    if (!resumed) return runYieldingTo(gate, turn);
    const leave = gate.enter();
    return runWithPriority(turn).finally(leave);
  };
  /** A normal turn may start: a slot is free, and with `resumedAlone` no resumed turn runs or waits. */
  const normalMayStart = () =>
    running < limit.normal && !(resumedAlone && (runningResumed > 0 || queues.resumed.length > 0));
  /**
   * A resumed turn may start: fewer than `concurrency + resumedHeadroom` turns run, or, with `pauseForResumed`, fewer
   * resumed ones (the normal turns running wait at their next step boundary, so they do not count).
   */
  const resumedMayStart = () => (pauseForResumed ? runningResumed : running) < limit.resumed;
  const queued = () => queues.resumed.length + queues.normal.length;
  const busy = (reason: string) =>
    new TurnsBusyError({
      running,
      queued: queued(),
      reason,
      retryAfterMs: retryAfter(meanTurnMs, queued(), concurrency),
    });

  const pump = () => {
    for (;;) {
      const next =
        (resumedMayStart() ? queues.resumed.shift() : undefined) ??
        (normalMayStart() ? queues.normal.shift() : undefined);
      if (!next) return;
      next.start();
    }
  };

  /** Makes room for a waiting turn of `priority`: a refusal's reason when it must be refused instead. */
  const admit = (priority: TurnPriority): string | undefined => {
    if (priority === "resumed" && refuse) return undefined; // resumed turns are always admitted
    if (refuse)
      return running < limit.normal
        ? "no normal turn starts while a resumed one runs or waits"
        : `${concurrency} turns in flight, and normal turns do not wait`;
    if (queued() < maxQueued) return undefined;
    if (priority === "normal" || queues.normal.length === 0) return `at most ${maxQueued} may wait`;
    queues.normal.pop()!.refuse(busy("a resumed turn took its place in the queue"));
    return undefined;
  };

  return {
    run<T>(turn: () => Promise<T>, { priority = "normal" }: { priority?: TurnPriority } = {}): Promise<T> {
      if (priority !== "resumed" && priority !== "normal")
        throw new InvalidOptionsError({
          option: "priority",
          value: priority,
          message: "must be 'resumed' or 'normal'",
        });
      return new Promise<T>((resolve, reject) => {
        const resumed = priority === "resumed" ? 1 : 0;
        const start = () => {
          const startedAt = Date.now();
          running += 1;
          runningResumed += resumed;
          Promise.resolve()
            .then(() => execute(turn, resumed === 1))
            .then(resolve, reject)
            .finally(() => {
              running -= 1;
              runningResumed -= resumed;
              meanTurnMs = 0.8 * meanTurnMs + 0.2 * (Date.now() - startedAt);
              pump();
            });
        };
        const free = resumed ? resumedMayStart() : normalMayStart() && queued() === 0;
        if (free && queues.resumed.length === 0) return start();
        const refusal = admit(priority);
        if (refusal !== undefined) return reject(busy(refusal));
        queues[priority].push({ start, refuse: reject });
      });
    },
    get running() {
      return running;
    },
    get queued() {
      return queued();
    },
    get paused() {
      return gate?.waiting ?? 0;
    },
  };
}
