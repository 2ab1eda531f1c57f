import stringWidth from "string-width";

/** Visible width of a string in terminal cells (ANSI escapes ignored, East Asian wide characters count 2). */
export function visibleWidth(text: string): number {
  return stringWidth(text);
}

/** Cuts a plain string to `width` terminal cells with an ellipsis (wide characters count 2). */
export function truncate(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (stringWidth(flat) <= width) return flat;
  let out = "";
  let used = 0;
  for (const point of flat) {
    const cells = stringWidth(point);
    if (used + cells > width - 1) break;
    out += point;
    used += cells;
  }
  return `${out}…`;
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
