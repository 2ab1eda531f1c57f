import stringWidth from "string-width";

/** Printable ASCII only: one cell per character, no escapes (the common case, measured without string-width). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Splits text into user-perceived characters (an emoji sequence or a letter with its accents is one). */
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Visible width of a string in terminal cells (ANSI escapes ignored, East Asian wide characters count 2). */
export function visibleWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text);
}

/**
 * Cuts a plain string to `width` terminal cells with an ellipsis (wide characters count 2). Linear in the text:
 * ASCII is cut by length; otherwise each grapheme is measured once, and only until the width is used up.
 */
export function truncate(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (PRINTABLE_ASCII.test(flat)) return flat.length <= width ? flat : `${flat.slice(0, Math.max(0, width - 1))}…`;
  let out = "";
  let used = 0;
  for (const { segment } of graphemes.segment(flat)) {
    const cells = PRINTABLE_ASCII.test(segment) ? segment.length : stringWidth(segment);
    if (used + cells > width) return `${cutTo(out, used, width - 1)}…`;
    out += segment;
    used += cells;
  }
  return out;
}

/** `text` (of `used` cells, graphemes only) cut back until it fits in `width` cells. */
function cutTo(text: string, used: number, width: number): string {
  let out = text;
  let cells = used;
  while (cells > width && out.length > 0) {
    const last = [...graphemes.segment(out)].pop()!.segment;
    out = out.slice(0, -last.length);
    cells -= PRINTABLE_ASCII.test(last) ? last.length : stringWidth(last);
  }
  return out;
}

/** Aligns rows into columns separated by two spaces; the last column is not padded. */
export function formatTable(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, visibleWidth(cell))));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell + " ".repeat(widths[i]! - visibleWidth(cell))))
        .join("  "),
    )
    .join("\n");
}

/** The terminal width to fit tables in (stdout's columns, else COLUMNS, else 100). */
export function terminalColumns(stdout: { columns?: number }, env: NodeJS.ProcessEnv): number {
  const fromEnv = Number(env.COLUMNS);
  return stdout.columns ?? (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 100);
}
