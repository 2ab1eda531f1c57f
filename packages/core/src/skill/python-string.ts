// Python `str` semantics the reference validator relies on, reproduced exactly enough for SKILL.md checks.

/** Characters Python's `str.strip()` removes (`str.isspace()`); unlike JS `trim()`, includes U+001C-U+001F and U+0085 but not U+FEFF. */
const PY_SPACE = "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const PY_STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "gu");

/** Python `s.strip()`. */
export function pyStrip(text: string): string {
  return text.replace(PY_STRIP, "");
}

/** Python `len(s)`: Unicode code points, not UTF-16 units (an emoji counts 1). */
export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length += 1;
  return length;
}

const ALNUM = /^[\p{L}\p{N}]$/u;

/** Python `c.isalnum()` for one code point: Unicode letters (L*) and numbers (N*). */
export function isPyAlnum(character: string): boolean {
  return ALNUM.test(character);
}
