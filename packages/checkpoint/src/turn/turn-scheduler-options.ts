import { z } from "zod";
import { integerSchema } from "../internal/core.js";

/**
 * The options of `createTurnScheduler` as a zod schema: it checks them (an InvalidOptionsError names the option at
 * fault) and fills in the defaults; `TurnSchedulerOptions` is its input type.
 */
export const turnSchedulerOptionsSchema = z.object(
  {
    /** Turns run at once in this process; the others wait in priority order. @default 8 */
    concurrency: integerSchema({ max: 100_000 }).default(8),
    /** Turns that may wait; one more is refused at once with TurnsBusyError (0: never wait). @default 64 */
    maxQueued: integerSchema({ min: 0, max: 1_000_000 }).default(64),
    /**
     * Slots beyond `concurrency` that only `resumed` turns may take, so a thread just taken over starts at once
     * instead of waiting for a running turn to end (turns cannot be paused). @default 0
     */
    resumedHeadroom: integerSchema({ min: 0, max: 100_000 }).default(0),
    /**
     * While a `resumed` turn runs or waits, no `normal` turn starts (they wait, or are refused beyond `maxQueued`), so
     * the taken-over threads have the process's CPU and connections to themselves once the turns already running end.
     * @default false
     */
    resumedAlone: z.boolean({ error: "must be true or false" }).default(false),
    /**
     * What happens to a `normal` turn that cannot start at once. `queue`: it waits (up to `maxQueued`). `refuse`: it is
     * refused at once with TurnsBusyError (`retryAfterMs`) once `concurrency` turns are in flight (or, with
     * `resumedAlone`, while a resumed turn runs or waits), so no fresh turn ever waits in this process and a taken-over
     * thread's turn is never behind one; `resumed` turns are then always admitted, ahead of every other, never refused.
     * Off by default: refusing needs a client that retries (with the same message id) or a balancer that sends the turn
     * elsewhere, and a lone process would turn every burst into errors. @default "queue"
     */
    admission: z.enum(["queue", "refuse"], { error: "must be 'queue' or 'refuse'" }).default("queue"),
    /**
     * While a `resumed` turn runs, `normal` turns already running wait at their next step boundary (before a
     * checkpoint read or write, a graph node, a model or tool call; never holding a connection), so the taken-over
     * thread runs nearly alone in the process; they go on when the last resumed turn ends. Applies to turns run with
     * `runTurnOnce` inside `run`. Paused normal turns do not count against the resumed turns' slots: up to
     * `concurrency + resumedHeadroom` resumed turns run, however many normal ones wait. A resumed turn that hangs
     * holds the normal ones as long. @default false
     */
    pauseForResumed: z.boolean({ error: "must be true or false" }).default(false),
  },
  { error: "must be an object" },
);

/** Options of `createTurnScheduler` (the input of `turnSchedulerOptionsSchema`). */
export type TurnSchedulerOptions = z.input<typeof turnSchedulerOptionsSchema>;
