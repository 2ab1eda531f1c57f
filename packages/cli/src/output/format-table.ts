/** Visible width of a string (ANSI escapes ignored, code points counted). */
export function visibleWidth(text: string): number {
  return [...text.replace(/\u001b\[[0-9;]*m/g, "")].length;
}

/** Cuts a plain string to `width` code points with an ellipsis. */
export function truncate(text: string, width: number): string {
  const points = [...text.replace(/\s+/g, " ").trim()];
  if (points.length <= width) return points.join("");
  return `${points.slice(0, Math.max(0, width - 1)).join("")}…`;
}

/** Aligns rows into columns separated by two spaces; the last column is not padded. */
export function formatTable(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, visibleWidth(cell))));
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell + " ".repeat(widths[i]! - visibleWidth(cell)))).join("  "))
    .join("\n");
}
