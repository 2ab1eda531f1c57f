import { describe, expect, it } from "vitest";
import { editDistance } from "./edit-distance.js";

describe("editDistance", () => {
  it("counts substitutions, insertions, deletions and adjacent transpositions as one edit each", () => {
    expect(editDistance("abuseipdb", "abuselpdb", 2)).toBe(1);
    expect(editDistance("vercle", "vercel", 2)).toBe(1);
    expect(editDistance("syle", "style", 2)).toBe(1);
    expect(editDistance("deploy", "deploy", 2)).toBe(0);
  });

  it("gives up with max + 1 once the distance exceeds max", () => {
    expect(editDistance("kitten", "sitting", 1)).toBe(2);
    expect(editDistance("a", "abcdef", 2)).toBe(3);
  });
});
