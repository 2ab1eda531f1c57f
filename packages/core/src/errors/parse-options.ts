import type { z } from "zod";
import { InvalidOptionsError } from "./invalid-options-error.js";

/** An issue's path as an option name under `prefix`: `loadModes.pdf`, `tools[2]`; `options` for the object itself. */
export function optionPath(keys: readonly PropertyKey[], prefix = ""): string {
  let name = prefix;
  for (const key of keys) name += typeof key === "number" ? `[${key}]` : `${name === "" ? "" : "."}${String(key)}`;
  return name === "" ? "options" : name;
}

/** The value at `keys` inside `input` (undefined when the path leaves the objects). */
function valueAt(input: unknown, keys: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of keys) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * For a value no branch of a union accepts: when exactly one branch took the value's shape (its issue is inside the
 * value, e.g. `onWrite: { every: 1.5 }` against `boolean | { every }`), that branch's issue, which is more precise.
 */
function innermostIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== "invalid_union") return issue;
  const matched = issue.errors.filter((branch) => branch.some((inner) => inner.path.length > 0));
  if (matched.length !== 1) return issue;
  const inner = innermostIssue(matched[0]!.find((candidate) => candidate.path.length > 0)!);
  return { ...inner, path: [...issue.path, ...inner.path] };
}

/**
 * Parses options with their zod schema (checks and defaults); on the first issue throws InvalidOptionsError naming the
 * option at fault (its path, under `prefix`) with the schema's message, e.g. "Invalid option 'loadModes.pdf': …".
 * @throws InvalidOptionsError
 */
export function parseOptions<Schema extends z.ZodType>(schema: Schema, input: unknown, prefix = ""): z.output<Schema> {
  // jitless: options are parsed once per object made, where compiling zod's fast path (`new Function`) costs more than
  // the parse itself (about 25 ms on a cold start); the result is the same.
  const result = schema.safeParse(input, { reportInput: true, jitless: true });
  if (result.success) return result.data;
  const issue = innermostIssue(result.error.issues[0]!);
  const value = "input" in issue ? issue.input : valueAt(input, issue.path);
  throw new InvalidOptionsError({ option: optionPath(issue.path, prefix), value, message: issue.message });
}
