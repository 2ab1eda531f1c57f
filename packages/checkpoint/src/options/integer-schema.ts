import { z } from "zod";

/** Bounds of an integer option: `min` 1 (a count, a duration) or 0 (0 turns something off); `max` when one matters. */
export interface IntegerSchemaBounds {
  /** @default 1 */
  min?: 0 | 1;
  /** @default Number.MAX_SAFE_INTEGER */
  max?: number;
  /** Added to the message in parentheses, e.g. the unit or why the bound exists. */
  detail?: string;
}

/** The message core's `integerOption` gives for these bounds, e.g. "must be a positive integer no larger than 10 (ms)". */
export function integerMessage({ min = 1, max = Number.MAX_SAFE_INTEGER, detail }: IntegerSchemaBounds = {}): string {
  const kind = min === 0 ? "non-negative" : "positive";
  const limit = max === Number.MAX_SAFE_INTEGER ? "" : ` no larger than ${max}`;
  return `must be a ${kind} integer${limit}${detail === undefined ? "" : ` (${detail})`}`;
}

/** An integer option as a schema: a safe integer within the bounds, every failure with `integerMessage`. */
export function integerSchema(bounds: IntegerSchemaBounds = {}) {
  const error = integerMessage(bounds);
  return z
    .int({ error })
    .min(bounds.min ?? 1, { error })
    .max(bounds.max ?? Number.MAX_SAFE_INTEGER, { error });
}
