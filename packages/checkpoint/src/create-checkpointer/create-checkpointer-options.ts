import { z } from "zod";
import { integerSchema, MAX_TIMER_MS } from "../internal/core.js";

// setTimeout fires at once for delays of 2^31 ms or more.

/**
 * The options of `createCheckpointer` as a zod schema: it checks them (an InvalidOptionsError names the option at
 * fault) and fills in the defaults; `CreateCheckpointerOptions` is its input type.
 */
export const createCheckpointerOptionsSchema = z.object(
  {
    /** Directory a relative `sqlite:` path is resolved against. @default process.cwd() */
    cwd: z
      .string({ error: "must be a directory path" })
      .min(1, { error: "must be a directory path" })
      .default(() => process.cwd()),
    /** Give up reaching PostgreSQL at setup after this many milliseconds (later waits for a pooled connection: up to 60 s). @default 5000 */
    connectTimeoutMs: integerSchema({ max: MAX_TIMER_MS, detail: "milliseconds" }).default(5000),
    /** PostgreSQL: wait this long before the one retry of an operation whose connection was lost. @default 1000 */
    retryDelayMs: integerSchema({ min: 0, max: MAX_TIMER_MS, detail: "milliseconds" }).default(1000),
    /**
     * PostgreSQL: while the server is restarting (connection refused, 57P03 "the database system is starting up" or
     * "shutting down", 57P01), retry the setup for up to this many milliseconds, with an exponential backoff from
     * 200 ms up to 5 s between attempts; 0 tries once. Any other error (bad password, unknown database) fails at once.
     * @default 30000
     */
    startupRetryMs: integerSchema({ min: 0, max: MAX_TIMER_MS, detail: "milliseconds; 0 tries once" }).default(30_000),
    /**
     * PostgreSQL: of the pool's 10 connections, keep this many for priority work (`runWithPriority`, the turn
     * scheduler's resumed turns): other queries hold at most the rest and wait in a line of their own. @default 0
     */
    reservedConnections: integerSchema({ min: 0, max: 9, detail: "connections, of 10" }).default(0),
  },
  { error: "must be an object" },
);

/** Options of `createCheckpointer` (the input of `createCheckpointerOptionsSchema`). */
export type CreateCheckpointerOptions = z.input<typeof createCheckpointerOptionsSchema>;
