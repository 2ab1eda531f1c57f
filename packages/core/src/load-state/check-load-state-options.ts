import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import type { LoadStateOptions } from "./load-state-types.js";

/** Checks load-state options once and returns the cap (Infinity when unlimited). Throws InvalidOptionsError. */
export function checkLoadStateOptions(options: LoadStateOptions | undefined): number {
  const maxLoaded = options?.maxLoaded;
  if (maxLoaded === undefined) return Number.POSITIVE_INFINITY;
  if (typeof maxLoaded !== "number" || !Number.isInteger(maxLoaded) || maxLoaded < 1) {
    throw new InvalidOptionsError({ option: "maxLoaded", value: maxLoaded, message: `must be an integer >= 1, got ${String(maxLoaded)}` });
  }
  return maxLoaded;
}
