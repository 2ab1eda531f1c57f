// Python `str` semantics the reference validator relies on, reproduced exactly enough for SKILL.md checks.

/**
 * Python's `str.isspace()` for one UTF-16 code unit: what `str.strip()` removes. Unlike JS `trim()`, it includes
 * U+001C-U+001F and U+0085 but not U+FEFF. Every such character is in the BMP, so code units are enough.
 */
export function isPySpace(code: number): boolean {
  if (code <= 0x20) return (code >= 0x09 && code <= 0x0d) || code >= 0x1c;
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Python `s.strip()` (a scan from both ends: no regex, linear even on long runs of blanks). */
export function pyStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPySpace(text.charCodeAt(start))) start++;
  while (end > start && isPySpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
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
