import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import type { LoadStateOptions } from "./load-state-types.js";

/** Checks load-state options once and returns the cap (Infinity when unlimited). Throws InvalidOptionsError. */
export function checkLoadStateOptions(options: LoadStateOptions | undefined): number {
  const cap = options?.maxLoadedSkills;
  if (cap === undefined) return Number.POSITIVE_INFINITY;
  if (typeof cap !== "number" || !Number.isInteger(cap) || cap < 1) {
    throw new InvalidOptionsError({
      option: "maxLoadedSkills",
      value: cap,
      message: `must be an integer >= 1, got ${String(cap)}`,
    });
  }
  return cap;
}
