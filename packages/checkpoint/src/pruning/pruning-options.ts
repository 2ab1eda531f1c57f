import { integerOption, InvalidOptionsError } from "../internal/core.js";
import type { PruningPolicy } from "./plan-pruning.js";

/** Options of `withPruning`. */
export interface PruningOptions extends PruningPolicy {
  /** Prune a thread after its root-graph checkpoints are written: `true` after every one, `{ every: n }` after every n-th. @default false */
  onWrite?: boolean | { every: number };
}

/** Pruning options checked and with defaults filled in. */
export interface ResolvedPruningOptions {
  policy: PruningPolicy;
  /** Prune after this many root checkpoint writes per thread; 0 = never on write. */
  pruneEvery: number;
}

/** Checks `withPruning` options once, throwing InvalidOptionsError naming the field. */
export function resolvePruningOptions(options: PruningOptions): ResolvedPruningOptions {
  const { keepLast, maxAgeMs, onWrite = false } = options ?? {};
  if (keepLast !== undefined)
    integerOption("keepLast", keepLast, { detail: "the newest checkpoint of each namespace is always kept" });
  if (maxAgeMs !== undefined && !(typeof maxAgeMs === "number" && Number.isFinite(maxAgeMs) && maxAgeMs > 0)) {
    throw new InvalidOptionsError({
      option: "maxAgeMs",
      value: maxAgeMs,
      message: "must be a positive number of milliseconds",
    });
  }
  if (keepLast === undefined && maxAgeMs === undefined) {
    throw new InvalidOptionsError({
      option: "keepLast",
      value: undefined,
      message: "set keepLast and/or maxAgeMs, or pruning would never remove anything",
    });
  }
  let pruneEvery = 0;
  if (onWrite === true) pruneEvery = 1;
  else if (typeof onWrite === "object" && onWrite !== null) {
    pruneEvery = integerOption("onWrite.every", onWrite.every);
  } else if (onWrite !== false) {
    throw new InvalidOptionsError({ option: "onWrite", value: onWrite, message: "must be a boolean or { every: n }" });
  }
  return { policy: { keepLast, maxAgeMs }, pruneEvery };
}
