/**
 * Cuts a description to at most `cap` characters, "…" included: whitespace runs become single spaces and the cut
 * falls on the last space if one lies in the second half (else mid-word, never inside a surrogate pair).
 * A description whose whitespace-collapsed form fits is returned unchanged, with `shortened: false`.
 * Pass `collapsed` when cutting the same text to several caps.
 */
export function shortenDescription(
  description: string,
  cap: number,
  collapsed = collapseWhitespace(description),
): { text: string; shortened: boolean } {
  if (collapsed.length <= cap) return { text: description, shortened: false };
  let end = Math.max(cap - 1, 0);
  const space = collapsed.lastIndexOf(" ", end);
  if (space > 0 && space >= end / 2) end = space;
  else if (end > 0 && isHighSurrogate(collapsed.charCodeAt(end - 1))) end -= 1;
  return { text: `${collapsed.slice(0, end).trimEnd()}…`, shortened: true };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Whitespace runs (newlines included) as single spaces, ends trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
