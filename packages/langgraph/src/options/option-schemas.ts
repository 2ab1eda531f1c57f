import { z } from "zod";

/**
 * An integer option as a schema: a safe integer of at least `min` (1 for a count or size, 0 when 0 turns something
 * off), with the message core's `integerOption` gives, e.g. "must be a positive integer".
 */
export function integerSchema(min: 0 | 1) {
  const error = `must be a ${min === 0 ? "non-negative" : "positive"} integer`;
  return z.int({ error }).min(min, { error }).max(Number.MAX_SAFE_INTEGER, { error });
}

/** One of a few strings, with a message listing them: `must be one of "turn", "once", "session"`. */
export function oneOfSchema<const Values extends readonly [string, ...string[]]>(values: Values) {
  return z.enum(values, { error: `must be one of ${values.map((value) => `"${value}"`).join(", ")}` });
}

/** A value only a predicate can check (a catalog, a tool, a function), typed as `T`, with `message` when it fails. */
export function shapeSchema<T>(check: (value: unknown) => boolean, message: string) {
  return z.custom<T>(check, { error: message });
}
