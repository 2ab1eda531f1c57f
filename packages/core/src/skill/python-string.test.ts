import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codePointLength, isPyAlnum, isPySpace, pyStrip } from "./python-string.js";

/** Python's whitespace set as a regex character class (the definition the scanning implementation must match). */
const PY_SPACE = "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const referenceStrip = (text: string) => text.replace(new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "gu"), "");

describe("Python string semantics", () => {
  it("pyStrip removes what Python's strip() removes, unlike trim(): U+001C-U+001F and U+0085 go, U+FEFF stays", () => {
    expect(pyStrip("\x1c\x85 a b \u3000\n")).toBe("a b");
    expect(pyStrip("\uFEFFa")).toBe("\uFEFFa");
  });

  it("isPySpace agrees with Python's whitespace class on every BMP code unit", () => {
    const single = new RegExp(`^${PY_SPACE}$`, "u");
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      expect(isPySpace(code), `U+${code.toString(16)}`).toBe(single.test(String.fromCharCode(code)));
    }
  });

  it("pyStrip gives what the regex definition gives on random text heavy in blanks", () => {
    const blank = fc.constantFrom(
      " ",
      "\t",
      "\n",
      "\r",
      "\x1c",
      "\x85",
      "\xa0",
      "\u2000",
      "\u3000",
      "\uFEFF",
      "\u200b",
    );
    const text = fc.array(fc.oneof(blank, fc.string({ maxLength: 3 }), fc.string({ unit: "binary", maxLength: 2 })), {
      maxLength: 30,
    });
    fc.assert(
      fc.property(text, (parts) => pyStrip(parts.join("")) === referenceStrip(parts.join(""))),
      {
        numRuns: 2000,
      },
    );
  });

  it("codePointLength counts an emoji or an astral CJK character as one", () => {
    expect(codePointLength("😀a")).toBe(2);
    expect(codePointLength("𠀀")).toBe(1);
    expect("😀a".length).toBe(3);
  });

  it("isPyAlnum accepts letters and digits of any script and refuses marks, punctuation and symbols", () => {
    for (const character of ["a", "Z", "中", "ж", "٣", "Ⅻ"]) expect(isPyAlnum(character)).toBe(true);
    for (const character of ["-", "_", " ", "\u0301", "😀", "."]) expect(isPyAlnum(character)).toBe(false);
  });
});
