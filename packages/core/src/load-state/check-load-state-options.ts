import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import type { LoadStateOptions } from "./load-state-types.js";

/**
 * Checks load-state options once and returns the cap (Infinity when unlimited). `maxLoaded` is the deprecated
 * spelling of `maxLoadedSkills`; giving both with different values is an error. Throws InvalidOptionsError.
 */
export function checkLoadStateOptions(options: LoadStateOptions | undefined): number {
  const preferred = options?.maxLoadedSkills;
  const legacy = options?.maxLoaded;
  if (preferred !== undefined && legacy !== undefined && preferred !== legacy) {
    throw new InvalidOptionsError({
      option: "maxLoadedSkills",
      value: preferred,
      message: `conflicts with the deprecated maxLoaded (${String(legacy)}); give only maxLoadedSkills`,
    });
  }
  const option = preferred !== undefined ? "maxLoadedSkills" : "maxLoaded";
  const cap = preferred ?? legacy;
  if (cap === undefined) return Number.POSITIVE_INFINITY;
  if (typeof cap !== "number" || !Number.isInteger(cap) || cap < 1) {
    throw new InvalidOptionsError({ option, value: cap, message: `must be an integer >= 1, got ${String(cap)}` });
  }
  return cap;
}
