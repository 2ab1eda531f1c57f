import { z } from "zod";
import { parseOptions } from "../errors/parse-options.js";
import type { LoadStateOptions } from "./load-state-types.js";

const capError = (issue: { input?: unknown }) => `must be an integer >= 1, got ${String(issue.input)}`;

/** The load-state options as one schema: no cap unless `maxLoadedSkills` is given. */
const loadStateOptionsSchema = z
  .object({
    maxLoadedSkills: z.int({ error: capError }).min(1, { error: capError }).default(Number.POSITIVE_INFINITY),
  })
  .default({ maxLoadedSkills: Number.POSITIVE_INFINITY });

/** Checks load-state options once and returns the cap (Infinity when unlimited). Throws InvalidOptionsError. */
export function checkLoadStateOptions(options: LoadStateOptions | undefined): number {
  return parseOptions(loadStateOptionsSchema, options).maxLoadedSkills;
}
