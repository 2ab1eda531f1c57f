import { z } from "zod";
import { parseOptions } from "./parse-options.js";

/** setTimeout's largest delay (ms): a longer timeout fires at once, so duration options are bounded by it. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Bounds of an integer option: `min` 1 (a count, a size) or 0 (0 turns something off); `max` when one matters. */
export interface IntegerOptionBounds {
  /** @default 1 */
  min?: 0 | 1;
  /** @default Number.MAX_SAFE_INTEGER */
  max?: number;
  /** Added to the message in parentheses, e.g. the unit or why the bound exists. */
  detail?: string;
}

/** The message for an integer out of these bounds, e.g. "must be a positive integer no larger than 10 (ms)". */
export function integerMessage({ min = 1, max = Number.MAX_SAFE_INTEGER, detail }: IntegerOptionBounds = {}): string {
  const kind = min === 0 ? "non-negative" : "positive";
  const limit = max === Number.MAX_SAFE_INTEGER ? "" : ` no larger than ${max}`;
  return `must be a ${kind} integer${limit}${detail === undefined ? "" : ` (${detail})`}`;
}

/**
 * The one check of integer options across the packages: returns `value` when it is a safe integer within the bounds,
 * else throws InvalidOptionsError naming `option`, e.g. "Invalid option 'maxResourceBytes': must be a positive integer".
 * @example const maxResourceBytes = integerOption("maxResourceBytes", options.maxResourceBytes ?? 65_536);
 */
export function integerOption(option: string, value: unknown, bounds: IntegerOptionBounds = {}): number {
  return parseOptions(integerSchema(bounds), value, option);
}

/** The same check as a zod schema (for option schemas read with `parseOptions`), every failure with `integerMessage`. */
export function integerSchema(bounds: IntegerOptionBounds = {}) {
  const error = integerMessage(bounds);
  return z
    .int({ error })
    .min(bounds.min ?? 1, { error })
    .max(bounds.max ?? Number.MAX_SAFE_INTEGER, { error });
}
