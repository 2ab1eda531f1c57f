import { z } from "zod";
import { integerSchema } from "../internal/core.js";
import { parseOptions } from "../internal/core.js";

const NOTHING_TO_PRUNE = "set keepLast and/or maxAgeMs, or pruning would never remove anything";

/**
 * The options of `withPruning` as a zod schema: it checks them (an InvalidOptionsError names the option at fault) and
 * turns them into the policy and how often to prune on write; `PruningOptions` is its input type.
 */
export const pruningOptionsSchema = z
  .object(
    {
      /** Keep this many newest checkpoints per thread and namespace. */
      keepLast: integerSchema({ detail: "the newest checkpoint of each namespace is always kept" }).optional(),
      /** Drop checkpoints older than this many milliseconds. */
      maxAgeMs: z
        .number({ error: "must be a positive number of milliseconds" })
        .positive({ error: "must be a positive number of milliseconds" })
        .optional(),
      /** Prune a thread after its root-graph checkpoints are written: `true` after every one, `{ every: n }` after every n-th. @default false */
      onWrite: z
        .union([z.boolean(), z.object({ every: integerSchema() })], { error: "must be a boolean or { every: n }" })
        .default(false),
    },
    { error: "must be an object" },
  )
  .superRefine(({ keepLast, maxAgeMs }, context) => {
    if (keepLast === undefined && maxAgeMs === undefined)
      context.addIssue({ code: "custom", path: ["keepLast"], input: undefined, message: NOTHING_TO_PRUNE });
  })
  .transform(({ keepLast, maxAgeMs, onWrite }) => ({
    policy: { keepLast, maxAgeMs },
    /** Prune after this many root checkpoint writes per thread; 0 = never on write. */
    pruneEvery: onWrite === true ? 1 : onWrite === false ? 0 : onWrite.every,
  }));

/** Options of `withPruning` (the input of `pruningOptionsSchema`). */
export type PruningOptions = z.input<typeof pruningOptionsSchema>;

/** Pruning options checked and with defaults filled in (the output of `pruningOptionsSchema`). */
export type ResolvedPruningOptions = z.output<typeof pruningOptionsSchema>;

/** Checks `withPruning` options once, throwing InvalidOptionsError naming the field. */
export function resolvePruningOptions(options: PruningOptions): ResolvedPruningOptions {
  return parseOptions(pruningOptionsSchema, options);
}
