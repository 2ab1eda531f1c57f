// Zod pieces shared by core's option schemas, each failing with the message core's errors have always used;
// `parseOptions` turns the first failure into an InvalidOptionsError naming the option.
import { z } from "zod";

/** A number in 0..1 (a score, a share). */
export function fractionSchema() {
  const error = "must be a number in 0..1";
  return z.number({ error }).min(0, { error }).max(1, { error });
}

/** A boolean option. */
export function booleanSchema() {
  return z.boolean({ error: "must be a boolean" });
}

/** A non-negative number of milliseconds (a delay, an interval). */
export function millisecondsSchema() {
  const error = "must be a non-negative number of milliseconds";
  return z.number({ error }).min(0, { error });
}

/** A string with at least one character. */
export function nonEmptyStringSchema(error = "must be a non-empty string") {
  return z.string({ error }).min(1, { error });
}
