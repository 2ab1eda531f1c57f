import { InvalidOptionsError } from "./invalid-options-error.js";

/** Bounds of an integer option: `min` 1 (a count, a size) or 0 (0 turns something off); `max` when one matters. */
export interface IntegerOptionBounds {
  /** @default 1 */
  min?: 0 | 1;
  /** @default Number.MAX_SAFE_INTEGER */
  max?: number;
  /** Added to the message in parentheses, e.g. the unit or why the bound exists. */
  detail?: string;
}

/**
 * The one check of integer options across the packages: returns `value` when it is a safe integer within the bounds,
 * else throws InvalidOptionsError naming `option`, e.g. "Invalid option 'maxResourceBytes': must be a positive integer".
 * @example const maxResourceBytes = integerOption("maxResourceBytes", options.maxResourceBytes ?? 65_536);
 */
export function integerOption(option: string, value: unknown, bounds: IntegerOptionBounds = {}): number {
  const { min = 1, max = Number.MAX_SAFE_INTEGER, detail } = bounds;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= min && value <= max) return value;
  const kind = min === 0 ? "non-negative" : "positive";
  const limit = max === Number.MAX_SAFE_INTEGER ? "" : ` no larger than ${max}`;
  const message = `must be a ${kind} integer${limit}${detail === undefined ? "" : ` (${detail})`}`;
  throw new InvalidOptionsError({ option, value, message });
}
