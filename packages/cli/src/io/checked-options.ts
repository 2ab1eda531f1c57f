import type { z } from "zod";
import { UsageError } from "./usage-error.js";

/**
 * A command's parsed flags checked against its zod schema: the typed options, or a UsageError (exit 2, with the usage
 * line) carrying the first problem's message, which the schema words for the command line ("--timeout must be ...").
 */
export function checkedOptions<Schema extends z.ZodType>(schema: Schema, values: unknown): z.output<Schema> {
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  throw new UsageError(result.error.issues[0]?.message ?? "invalid options");
}
