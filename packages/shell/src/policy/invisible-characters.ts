// Characters a terminal does not show as themselves: bidi controls (U+202A-202E, U+2066-2069, U+200E/F, U+061C),
// zero-width and other format characters, default-ignorable code points (variation selectors, fillers, tags) and line
// or paragraph separators. In a line shown for approval they make what the user reads differ from what runs.

const INVISIBLE = /[\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;

function escapeCodePoint(char: string): string {
  const code = char.codePointAt(0) as number;
  const hex = code.toString(16).toUpperCase();
  return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
}

/** The invisible characters of a text, each once in order of appearance, escaped (`\u202E`). */
export function invisibleCharacters(text: string): string[] {
  return [...new Set((text.match(INVISIBLE) ?? []).map(escapeCodePoint))];
}

/** The text with every invisible character shown escaped (`\u202E`), so what is read is what runs. */
export function showInvisibleCharacters(text: string): string {
  return text.replace(INVISIBLE, escapeCodePoint);
}

/** `{ invisible }` listing the invisible characters of the texts of an approval request, or `{}` when there are none. */
export function invisibleField(...texts: string[]): { invisible?: string[] } {
  const found = invisibleCharacters(texts.join("\n"));
  return found.length > 0 ? { invisible: found } : {};
}
