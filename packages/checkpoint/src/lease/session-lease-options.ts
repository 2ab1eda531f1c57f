import { z } from "zod";
import type { SessionLeaseLostError } from "../errors/session-lease-lost-error.js";
import { integerMessage, integerSchema, MAX_TIMER_MS } from "../internal/core.js";

// setTimeout fires at once for delays of 2^31 ms or more.

const renewEveryByDefault = (ttlMs: number) => Math.max(1, Math.floor(ttlMs / 3));

/**
 * The options of `acquireSessionLease` as a zod schema: it checks them (an InvalidOptionsError names the option at
 * fault) and fills in the defaults; `SessionLeaseOptions` is its input type.
 */
export const sessionLeaseOptionsSchema = z
  .object(
    {
      /** The lease runs out this long after its last renewal (a crashed holder blocks the session this long). @default 30000 */
      ttlMs: integerSchema({ max: MAX_TIMER_MS, detail: "milliseconds" }).default(30_000),
      /** Renew this often while held; below `ttlMs`. @default ttlMs / 3 */
      renewEveryMs: integerSchema({ max: MAX_TIMER_MS, detail: "milliseconds, below ttlMs" }).optional(),
      /** Called once if the lease is lost (taken over, found so on renewal or refused by the database); writes through `protect()` throw from then on. */
      onLost: z
        .custom<(error: SessionLeaseLostError) => void>((value) => typeof value === "function", {
          error: "must be a function",
        })
        .optional(),
    },
    { error: "must be an object" },
  )
  .superRefine(({ ttlMs, renewEveryMs }, context) => {
    const renewEvery = renewEveryMs ?? renewEveryByDefault(ttlMs);
    if (renewEvery < ttlMs) return;
    const message = integerMessage({ max: ttlMs - 1, detail: `milliseconds, below ttlMs (${ttlMs})` });
    context.addIssue({ code: "custom", path: ["renewEveryMs"], input: renewEvery, message });
  })
  .transform((options) => ({ ...options, renewEveryMs: options.renewEveryMs ?? renewEveryByDefault(options.ttlMs) }));

/** Options of `acquireSessionLease` (the input of `sessionLeaseOptionsSchema`). */
export type SessionLeaseOptions = z.input<typeof sessionLeaseOptionsSchema>;
