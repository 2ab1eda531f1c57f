import { describe, expect, it } from "vitest";
import { invisibleCharacters, invisibleField, showInvisibleCharacters } from "./invisible-characters.js";

describe("invisible characters in a line shown for approval", () => {
  it("finds bidi controls, zero-width and other format characters, separators and tags, each once, escaped", () => {
    const text = "a\u202Eb\u2066c\u200Bd\u200De\uFEFFf\u2028g\u00ADh\u{E0041}i\u202E";
    expect(invisibleCharacters(text)).toEqual([
      "\\u202E",
      "\\u2066",
      "\\u200B",
      "\\u200D",
      "\\uFEFF",
      "\\u2028",
      "\\u00AD",
      "\\u{E0041}",
    ]);
    expect(showInvisibleCharacters(text)).toBe(
      "a\\u202Eb\\u2066c\\u200Bd\\u200De\\uFEFFf\\u2028g\\u00ADh\\u{E0041}i\\u202E",
    );
  });

  it("leaves visible text alone, non-ASCII letters included", () => {
    const text = "echo 'héllo wörld' | grep 日本 && printf '\\t'";
    expect(invisibleCharacters(text)).toEqual([]);
    expect(showInvisibleCharacters(text)).toBe(text);
    expect(invisibleField(text)).toEqual({});
    expect(invisibleField("ok", "x\u200By")).toEqual({ invisible: ["\\u200B"] });
  });
});
