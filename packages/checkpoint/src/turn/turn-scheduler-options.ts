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
  },
  { error: "must be an object" },
);

/** Options of `createTurnScheduler` (the input of `turnSchedulerOptionsSchema`). */
export type TurnSchedulerOptions = z.input<typeof turnSchedulerOptionsSchema>;
