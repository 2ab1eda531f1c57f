import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { propertySeed } from "./fast-check-seed.js";

describe("the fast-check seed of a test run", () => {
  it("is fixed unless FC_SEED says otherwise", () => {
    expect(propertySeed(undefined)).toBe(propertySeed(""));
    expect(propertySeed("42")).toBe(42);
    expect(propertySeed("random")).toBeUndefined();
    expect(() => propertySeed("4.5")).toThrow(/FC_SEED must be an integer or "random", got '4.5'/);
  });

  it("is the seed every property of this run starts from", () => {
    const expected = propertySeed();
    if (expected === undefined) return; // FC_SEED=random: nothing fixed to check
    expect(fc.readConfigureGlobal().seed).toBe(expected);
    const draws = () => fc.sample(fc.integer(), { numRuns: 5 });
    expect(draws()).toEqual(draws());
  });
});
