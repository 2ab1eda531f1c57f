/**
 * A word whose value is known only when the line runs (`$(...)`, a variable the line sets, a glob) is carried through
 * the rule checks as this marker followed by what makes it unknown. NUL never occurs in a checked line, so no typed
 * word can look like one. Deny and approval rules treat it as matching anything; allow rules as matching nothing.
 */
export const DYNAMIC_WORD = "\u0000";

/** True when `word` is a {@link DYNAMIC_WORD} marker. */
export function isDynamicWord(word: string): boolean {
  return word.startsWith(DYNAMIC_WORD);
}

/** A word for messages: a marker shows as `«what makes it unknown»`. */
export function displayWord(word: string): string {
  return isDynamicWord(word) ? `«${word.slice(1)}»` : word;
}
