#!/usr/bin/env node
// Builds out/report.md from a CSV file: row count, totals of numeric columns, and the rows as a Markdown table.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

function parseArgs(argv) {
  const options = { title: undefined, input: undefined };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === "--title") options.title = argv[++index];
    else if (arg.startsWith("--title=")) options.title = arg.slice("--title=".length);
    else options.input = arg;
  }
  return options;
}

function splitCsvLine(line) {
  const cells = [];
  let cell = "";
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quoted) {
      if (char === '"' && line[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      cells.push(cell);
      cell = "";
    } else cell += char;
  }
  cells.push(cell);
  return cells.map((value) => value.trim());
}

const { title, input } = parseArgs(process.argv.slice(2));
if (!input) {
  console.error("usage: build-report.mjs <file.csv> [--title TEXT]");
  process.exit(2);
}
let text;
try {
  text = readFileSync(input, "utf8");
} catch (error) {
  console.error(`cannot read ${input}: ${error.code ?? error.message}`);
  process.exit(2);
}
const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
if (lines.length < 2) {
  console.error(`${input} has no data rows`);
  process.exit(2);
}
const header = splitCsvLine(lines[0]);
const rows = lines.slice(1).map(splitCsvLine);
const totals = header.map((_, column) => {
  const values = rows.map((row) => row[column] ?? "");
  const numeric = values.every((value) => value !== "" && Number.isFinite(Number(value)));
  return numeric ? values.reduce((sum, value) => sum + Number(value), 0) : undefined;
});
const escape = (value) => String(value).replaceAll("|", "\\|");
const report = [
  `# ${title ?? path.basename(input)}`,
  "",
  `Rows: ${rows.length}`,
  "",
  "## Totals",
  "",
  ...header.map((name, column) => `- ${name}: ${totals[column] === undefined ? `${rows.length} values` : totals[column]}`),
  "",
  "## Data",
  "",
  `| ${header.map(escape).join(" | ")} |`,
  `| ${header.map(() => "---").join(" | ")} |`,
  ...rows.map((row) => `| ${header.map((_, column) => escape(row[column] ?? "")).join(" | ")} |`),
  "",
].join("\n");
const outDir = process.env.OUT_DIR ?? "out";
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, "report.md"), report);
console.log(`wrote out/report.md: ${rows.length} rows, ${header.length} columns`);
