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
  const issue = result.error.issues[0]!;
  throw new InvalidOptionsError({ option: optionPath(issue.path), value: issue.input, message: issue.message });
}
