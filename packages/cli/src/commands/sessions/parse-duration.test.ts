import { describe, expect, it } from "vitest";
import { formatBytes, parseDuration } from "./parse-duration.js";

describe("parseDuration", () => {
  it("reads durations with units and bare numbers as days", () => {
    expect(parseDuration("90s", "--max-age")).toBe(90_000);
    expect(parseDuration("12h", "--max-age")).toBe(43_200_000);
    expect(parseDuration("7", "--max-age")).toBe(7 * 86_400_000);
  });

  it("rejects text that is not a duration, naming the flag", () => {
    expect(() => parseDuration("soon", "--max-age")).toThrow("--max-age 'soon' is not a duration");
    expect(() => parseDuration("0d", "--max-age")).toThrow("greater than zero");
  });
});

describe("formatBytes", () => {
  it("picks B, KB or MB", () => {
    expect(formatBytes(812)).toBe("812 B");
    expect(formatBytes(5.4 * 1024 * 1024)).toBe("5.4 MB");
  });
});
