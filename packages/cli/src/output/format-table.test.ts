import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { truncate, visibleWidth } from "./format-table.js";

describe("truncate", () => {
  it("keeps text that fits, cuts ASCII to the width with an ellipsis", () => {
    expect(truncate("short  text\n", 20)).toBe("short text");
    expect(truncate("abcdefghij", 10)).toBe("abcdefghij");
    expect(truncate("abcdefghijk", 10)).toBe("abcdefghi…");
  });

  it("counts wide characters as two cells and never splits a grapheme", () => {
    expect(truncate("日本語のテキスト", 7)).toBe("日本語…");
    const family = "👨‍👩‍👧";
    expect(truncate(`ab${family}cd`, 5)).toBe(`ab${family}…`);
    expect(truncate(`ab${family}cd`, 4)).toBe("ab…");
    expect(truncate("e\u0301e\u0301e\u0301e\u0301", 3)).toBe("e\u0301e\u0301…");
  });

  it("never exceeds the width, whatever the mix", () => {
    const samples = ["Ünïcödé and 日本 mixed with emoji 🎉🎉 and ASCII", "ab👨‍👩‍👧cd", "x".repeat(500) + "é"];
    for (const text of samples)
      for (let width = 1; width < 40; width++) {
        const cut = truncate(text, width);
        expect(stringWidth(cut), `${text} @${width}`).toBeLessThanOrEqual(width);
        if (stringWidth(text) > width) expect(cut.endsWith("…")).toBe(true);
      }
  });

  it("visibleWidth agrees with string-width", () => {
    for (const text of ["plain", "日本", "\u001b[1mbold\u001b[22m", "🎉 party"])
      expect(visibleWidth(text)).toBe(stringWidth(text));
  });
});
