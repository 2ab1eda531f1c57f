import { describe, expect, it } from "vitest";
import { detectMimeType } from "./detect-mime-type.js";
import { compileOutputGlobs } from "./output-globs.js";

describe("detectMimeType", () => {
  it("trusts magic bytes over the extension", () => {
    expect(detectMimeType("fake.txt", Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toBe("image/png");
    expect(detectMimeType("doc.bin", Buffer.from("%PDF-1.7\n"))).toBe("application/pdf");
  });

  it("refines ZIP and text by extension", () => {
    expect(detectMimeType("a.docx", Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0]))).toContain("wordprocessingml");
    expect(detectMimeType("a.md", Buffer.from("# Title"))).toBe("text/markdown");
    expect(detectMimeType("a.weird", Buffer.from("plain words"))).toBe("text/plain");
    expect(detectMimeType("a.weird", Uint8Array.from([0, 1, 2, 250]))).toBe("application/octet-stream");
  });
});

describe("compileOutputGlobs", () => {
  const matches = (glob: string, path: string) => {
    const compiled = compileOutputGlobs([glob]);
    if (!compiled.ok) throw new Error(compiled.message);
    return compiled.match(path);
  };

  it("keeps * inside a segment and lets ** span segments", () => {
    expect(matches("*.md", "a.md")).toBe(true);
    expect(matches("*.md", "x/a.md")).toBe(false);
    expect(matches("**/*.{md,csv}", "x/y/a.csv")).toBe(true);
    expect(matches("**/*.{md,csv}", "a.md")).toBe(true);
    expect(matches("report.?d", "report.md")).toBe(true);
  });

  it("refuses globs that are absolute, climb out, too long or too many, before anything runs", () => {
    expect(compileOutputGlobs(["/etc/*"]).ok).toBe(false);
    expect(compileOutputGlobs(["../*"]).ok).toBe(false);
    expect(compileOutputGlobs(["a".repeat(300)]).ok).toBe(false);
    expect(compileOutputGlobs(Array.from({ length: 40 }, () => "*")).ok).toBe(false);
    expect(compileOutputGlobs([""]).ok).toBe(false);
  });

  it("matches a pathological '**/' pattern in linear time (no backtracking blow-up)", () => {
    const compiled = compileOutputGlobs(["**/".repeat(60) + "x"]);
    expect(compiled.ok && compiled.match("a/".repeat(200) + "y")).toBe(false);
  });
});
