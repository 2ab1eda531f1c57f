// Options are zod schemas: these helpers give the schemas the messages core's integerOption gives, and turn the first
// problem zod finds into an InvalidOptionsError naming the option (`limits.memoryBytes`, `deny[0]`).
import path from "node:path";
import { z } from "zod";
import { InvalidOptionsError } from "../internal/core.js";

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

/** The option path of an issue: `limits.memoryBytes`, `deny[0]`, `environment.set.HOME`. */
function optionPath(prefix: string, keys: readonly PropertyKey[]): string {
  let option = prefix;
  for (const key of keys) {
    if (typeof key === "number") option += `[${key}]`;
    else option += option === "" ? String(key) : `.${String(key)}`;
  }
  return option === "" ? "options" : option;
}

/** The value an issue is about, found in the input by its path. */
function valueAt(input: unknown, keys: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of keys) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * The issue to report: for a union (`false | { ... }`) whose input had the right shape but a bad field, the field's
 * issue (its path under the union's); else the issue itself with the union's own message.
 */
function reportedIssue(issue: z.core.$ZodIssue): { path: PropertyKey[]; message: string } {
  if (issue.code === "invalid_union") {
    for (const branch of issue.errors) {
      const inner = branch[0];
      if (inner && inner.path.length > 0) {
        const deeper = reportedIssue(inner);
        return { path: [...issue.path, ...deeper.path], message: deeper.message };
      }
    }
  }
  return { path: [...issue.path], message: issue.message };
}

/**
 * Parses `input` with `schema`; the first problem becomes an InvalidOptionsError naming the option (under `prefix`).
 * @throws InvalidOptionsError
 */
export function parseOptions<Schema extends z.ZodType>(schema: Schema, input: unknown, prefix = ""): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = reportedIssue(parsed.error.issues[0]!);
  throw new InvalidOptionsError({
    option: optionPath(prefix, issue.path),
    value: valueAt(input, issue.path),
    message: issue.message,
  });
}
