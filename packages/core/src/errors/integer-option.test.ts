import { describe, expect, it } from "vitest";
import { InvalidOptionsError } from "./invalid-options-error.js";
import { integerOption } from "./integer-option.js";

/** The InvalidOptionsError `run` throws (fails the test when it throws nothing else). */
function refusal(run: () => unknown): InvalidOptionsError {
  try {
    run();
  } catch (error) {
    if (InvalidOptionsError.isInstance(error)) return error;
    throw error;
  }
  throw new RangeError("expected an InvalidOptionsError");
}

describe("integerOption (the one integer-option check of core, langgraph, shell and checkpoint)", () => {
  it("returns integers within the bounds", () => {
    expect(integerOption("n", 1)).toBe(1);
    expect(integerOption("n", 0, { min: 0 })).toBe(0);
    expect(integerOption("n", 64, { max: 64 })).toBe(64);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, "8", undefined, null])(
    "refuses %o as a positive integer, naming the option and the value",
    (value) => {
      const error = refusal(() => integerOption("searchLimit", value));
      expect([error.option, error.value, error.message]).toEqual([
        "searchLimit",
        value,
        "Invalid option 'searchLimit': must be a positive integer",
      ]);
    },
  );

  it("says non-negative when 0 is allowed, and the maximum and detail when given", () => {
    expect(refusal(() => integerOption("enumThreshold", -1, { min: 0 })).message).toBe(
      "Invalid option 'enumThreshold': must be a non-negative integer",
    );
    expect(refusal(() => integerOption("ttlMs", 2 ** 31, { max: 2 ** 31 - 1, detail: "milliseconds" })).message).toBe(
      "Invalid option 'ttlMs': must be a positive integer no larger than 2147483647 (milliseconds)",
    );
  });
});
