import type { z } from "zod";
import { InvalidOptionsError } from "../internal/core.js";

/** An issue's path as an option name: `loadModes.pdf`, `tools[2]`; `options` for the object itself. */
export function optionPath(path: readonly PropertyKey[]): string {
  let name = "";
  for (const key of path) name += typeof key === "number" ? `[${key}]` : `${name === "" ? "" : "."}${String(key)}`;
  return name === "" ? "options" : name;
}

/**
 * Parses options with their zod schema (checks and defaults); on the first issue throws InvalidOptionsError naming the
 * option at fault (its path) with the schema's message for it, e.g. "Invalid option 'loadModes.pdf': must be one of …".
 */
export function parseOptions<Schema extends z.ZodType>(schema: Schema, options: unknown): z.output<Schema> {
  const result = schema.safeParse(options, { reportInput: true });
  if (result.success) return result.data;
  const issue = innermostIssue(result.error.issues[0]!);
  throw new InvalidOptionsError({ option: optionPath(issue.path), value: issue.input, message: issue.message });
}

/**
 * For a value no branch of a union accepts: when exactly one branch took the value's type (its issue is inside the
 * value, e.g. `onWrite: { every: 1.5 }` against `boolean | { every }`), that branch's issue, which is more precise.
 */
function innermostIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== "invalid_union") return issue;
  const matched = issue.errors.filter((branch) => branch.some((inner) => inner.path.length > 0));
  if (matched.length !== 1) return issue;
  const inner = innermostIssue(matched[0]!.find((candidate) => candidate.path.length > 0)!);
  return { ...inner, path: [...issue.path, ...inner.path] };
}
