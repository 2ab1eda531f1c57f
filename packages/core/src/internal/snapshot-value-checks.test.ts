import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isPlainName, isPlainRelativePath } from "./snapshot-value-checks.js";

describe("isPlainRelativePath", () => {
  it("refuses every path that climbs, is absolute, has an empty segment or a NUL", () => {
    for (const bad of ["", "/a", "a/", "a//b", ".", "..", "./a", "../a", "a/.", "a/..", "a/./b", "a/../b", "a\0b"])
      expect(isPlainRelativePath(bad), JSON.stringify(bad)).toBe(false);
    for (const good of ["a", "a/b", ".a", "a./..b", "a b/c.d", "..a/b.."])
      expect(isPlainRelativePath(good), JSON.stringify(good)).toBe(true);
  });

  it("agrees with splitting on '/' and checking every name", () => {
    const segment = fc.constantFrom("", ".", "..", "a", ".a", "a.", "..b", "\0", "x y");
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const path = segments.join("/");
        expect(isPlainRelativePath(path)).toBe(path.split("/").every(isPlainName));
      }),
      { numRuns: 2000 },
    );
  });
});
