// Options are zod schemas: these helpers give the schemas the messages core's integerOption gives; core's parseOptions
// turns the first problem zod finds into an InvalidOptionsError naming the option (`limits.memoryBytes`, `deny[0]`).
import path from "node:path";
import { z } from "zod";

/** setTimeout's largest delay: a longer timeout would fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The message of core's integerOption for a positive integer no larger than `max`. */
function positiveIntegerMessage(max: number): string {
  return max === Number.MAX_SAFE_INTEGER
    ? "must be a positive integer"
    : `must be a positive integer no larger than ${max}`;
}

/** A positive safe integer no larger than `max` (the bound core's integerOption checks, with its message). */
export function positiveInteger(max: number = Number.MAX_SAFE_INTEGER) {
  const error = positiveIntegerMessage(max);
  return z.number({ error }).int({ error }).min(1, { error }).max(max, { error });
}

/** A boolean option. */
export function booleanOption() {
  return z.boolean({ error: "must be a boolean" });
}

/** An absolute path. */
export function absolutePath(error = "must be an absolute path") {
  return z.string({ error }).refine((value) => path.isAbsolute(value), { error });
}

/** An array of strings. */
export function stringList() {
  const error = "must be an array of strings";
  return z.array(z.string({ error }), { error });
}

/** Parses options with their zod schema; the first problem becomes an InvalidOptionsError naming the option. */
export { parseOptions } from "../internal/core.js";
