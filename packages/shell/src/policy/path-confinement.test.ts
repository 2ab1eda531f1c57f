import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasParentSegment, realpathOfNearest } from "./path-confinement.js";

describe("hasParentSegment", () => {
  it("is true exactly when a segment between separators is '..'", () => {
    const segment = fc.constantFrom("..", ".", "", "a", "..a", "a..", "...", ". .");
    fc.assert(
      fc.property(fc.array(fc.tuple(segment, fc.constantFrom("/", "\\")), { maxLength: 8 }), (parts) => {
        const candidate = parts.map(([name, separator]) => name + separator).join("");
        const segments = candidate.split(/[\\/]/);
        expect(hasParentSegment(candidate)).toBe(segments.includes(".."));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("realpathOfNearest", () => {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "nearest-")));
  mkdirSync(path.join(root, "a", "b"), { recursive: true });
  mkdirSync(path.join(root, "elsewhere"));
  symlinkSync(path.join(root, "elsewhere"), path.join(root, "a", "link"));

  it.each([
    ["an existing path", "a/b", "a/b"],
    ["a missing tail under an existing folder", "a/b/c/d", "a/b/c/d"],
    ["a missing tail under a symlinked folder", "a/link/c/d", "elsewhere/c/d"],
    ["doubled separators", "a//link///c", "elsewhere/c"],
    ["a missing tail right under the root", "zz/y", "zz/y"],
  ])("resolves %s", (_name, relative, expected) => {
    expect(realpathOfNearest(`${root}/${relative}`)).toBe(path.join(root, expected));
  });

  it("resolves a path of 30 000 missing segments under a symlinked folder", () => {
    const tail = "x/".repeat(30_000) + "y";
    expect(realpathOfNearest(path.join(root, "a", "link", tail))).toBe(path.join(root, "elsewhere", tail));
  });

  it("leaves a relative path whose first segment is missing as written", () => {
    expect(realpathOfNearest("no-such-folder-here/x")).toBe("no-such-folder-here/x");
  });
});
