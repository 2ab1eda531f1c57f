import { describe, expect, it } from "vitest";
import { detectMimeType } from "./detect-mime-type.js";
import { globToRegExp } from "./glob-pattern.js";

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

describe("globToRegExp", () => {
  it("keeps * inside a segment and lets ** span segments", () => {
    expect(globToRegExp("*.md").test("a.md")).toBe(true);
    expect(globToRegExp("*.md").test("x/a.md")).toBe(false);
    expect(globToRegExp("**/*.{md,csv}").test("x/y/a.csv")).toBe(true);
    expect(globToRegExp("**/*.{md,csv}").test("a.md")).toBe(true);
    expect(globToRegExp("report.?d").test("report.md")).toBe(true);
  });
});
