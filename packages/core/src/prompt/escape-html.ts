const special = /[&<>"']/;
const replacements: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

/** Escapes text the way Python's `html.escape(text, quote=True)` does: `& < > " '` become `&amp; &lt; &gt; &quot; &#x27;`. */
export function escapeHtml(text: string): string {
  if (!special.test(text)) return text;
  return text.replace(/[&<>"']/g, (character) => replacements[character] as string);
}
