// Option schema helpers of the shell (integers are core's integerSchema); core's parseOptions turns the first problem
// zod finds into an InvalidOptionsError naming the option (`limits.memoryBytes`, `deny[0]`).
import path from "node:path";
import { z } from "zod";

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
