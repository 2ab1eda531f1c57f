import { describe, expect, it } from "vitest";
import { isBinaryContent } from "./binary-content.js";

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))));

describe("isBinaryContent (the one binary sniff: core's level-3 reads and shell's out/ collection)", () => {
  it("UTF-8 text is text, with or without a BOM; a NUL byte makes it binary", () => {
    expect(isBinaryContent(bytes("caf\u00e9 \u{1f600}\n"), { complete: true })).toBe(false);
    expect(isBinaryContent(bytes([0xef, 0xbb, 0xbf], "# notes\n"), { complete: true })).toBe(false);
    expect(isBinaryContent(bytes("PNG", [0], "rest"), { complete: true })).toBe(true);
    expect(isBinaryContent(bytes([]), { complete: true })).toBe(false);
  });

  it("UTF-16 text counts as binary (only UTF-8 is served as text)", () => {
    expect(isBinaryContent(Buffer.from("\ufeffhello", "utf16le"), { complete: true })).toBe(true);
  });

  it("a prefix may end in a cut multi-byte character; a whole file may not", () => {
    const cut = bytes("caf", [0xc3]); // the first byte of "é"
    expect(isBinaryContent(cut, { complete: false })).toBe(false);
    // shell's copy decoded every head in stream mode, so a whole file ending in a broken character passed as text
    expect(isBinaryContent(cut, { complete: true })).toBe(true);
    expect(isBinaryContent(bytes("x", [0xf0, 0x9f, 0x98]), { complete: false })).toBe(false);
  });

  it("an invalid byte at the end of a prefix is still binary", () => {
    // core's copy trimmed any byte >= 0xC0 in the last three before decoding, so a prefix ending in 0xFF passed as text
    expect(isBinaryContent(bytes("abc", [0xff]), { complete: false })).toBe(true);
    expect(isBinaryContent(bytes("abc", [0x80]), { complete: false })).toBe(true);
    expect(isBinaryContent(bytes("abc", [0xc3, 0x28]), { complete: false })).toBe(true);
  });
});
