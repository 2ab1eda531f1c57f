import { z } from "zod";

/** One of a few strings, with a message listing them: `must be one of "turn", "once", "session"`. */
export function oneOfSchema<const Values extends readonly [string, ...string[]]>(values: Values) {
  return z.enum(values, { error: `must be one of ${values.map((value) => `"${value}"`).join(", ")}` });
}

/** A value only a predicate can check (a catalog, a tool, a function), typed as `T`, with `message` when it fails. */
export function shapeSchema<T>(check: (value: unknown) => boolean, message: string) {
  return z.custom<T>(check, { error: message });
}
