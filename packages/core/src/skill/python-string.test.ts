import { describe, expect, it } from "vitest";
import { codePointLength, isPyAlnum, pyStrip } from "./python-string.js";

describe("Python string semantics", () => {
  it("pyStrip removes what Python's strip() removes, unlike trim(): U+001C-U+001F and U+0085 go, U+FEFF stays", () => {
    expect(pyStrip("\x1c\x85 a b \u3000\n")).toBe("a b");
    expect(pyStrip("\uFEFFa")).toBe("\uFEFFa");
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
