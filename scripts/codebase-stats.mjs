#!/usr/bin/env node
// Prints the codebase table the maintainers track: per package, source files (tests and fixtures apart), median and
// largest source file size, names exported by each entry point in package.json `exports` (resolved with the TypeScript
// checker, so `export *` counts what it really re-exports), and lines over 120 characters.
// Usage: node scripts/codebase-stats.mjs [--json]
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { findShapeOffences, shapeFigures } from "./check-code-shape.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const packagesDir = join(root, "packages");

/** Every .ts file under `dir` (node_modules and dist skipped). */
function tsFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...tsFiles(path));
    else if (entry.name.endsWith(".ts")) found.push(path);
  }
  return found;
}

const isTest = (path) => /\.test(-d)?\.ts$/.test(path);
const isFixture = (path) => path.split("/").includes("__fixtures__");

function median(values) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The `src/` file behind each subpath of package.json `exports` (via the `@skillgraph/source` condition). */
function sourceEntries(manifest, dir) {
  const entries = {};
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (typeof target !== "object" || target === null) continue;
    const source = target["@skillgraph/source"];
    if (typeof source === "string") entries[subpath] = join(dir, source);
  }
  return entries;
}

/** Names exported by `file`, split into values and type-only names. */
function exportedNames(program, file) {
  const checker = program.getTypeChecker();
  const sourceFile = program.getSourceFile(file);
  const symbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
  if (!symbol) return { values: 0, types: 0 };
  let values = 0;
  let types = 0;
  for (const exported of checker.getExportsOfModule(symbol)) {
    const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const typeOnly = exported.declarations?.some((declaration) => ts.isTypeOnlyImportOrExportDeclaration(declaration));
    if (!typeOnly && target.flags & ts.SymbolFlags.Value) values++;
    else types++;
  }
  return { values, types };
}

const rows = [];
const allEntries = [];
for (const name of readdirSync(packagesDir).sort()) {
  const dir = join(packagesDir, name);
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  } catch {
    continue;
  }
  const files = tsFiles(join(dir, "src"));
  const source = files.filter((path) => !isTest(path) && !isFixture(path));
  const sizes = source.map((path) => statSync(path).size);
  let lines = 0;
  let longLines = 0;
  for (const path of files) {
    for (const line of readFileSync(path, "utf8").split("\n")) {
      lines++;
      if (line.length > 120) longLines++;
    }
  }
  const entries = sourceEntries(manifest, dir);
  allEntries.push(...Object.values(entries));
  rows.push({
    name: manifest.name,
    sourceFiles: source.length,
    testFiles: files.filter(isTest).length,
    fixtureFiles: files.filter(isFixture).length,
    medianBytes: median(sizes),
    largest: sizes.length
      ? { bytes: Math.max(...sizes), file: relative(dir, source[sizes.indexOf(Math.max(...sizes))]) }
      : undefined,
    lines,
    linesOver120: longLines,
    entries,
  });
}

const program = ts.createProgram(allEntries, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  customConditions: ["@skillgraph/source"],
  noEmit: true,
  skipLibCheck: true,
  types: [],
});
for (const row of rows) {
  row.exports = {};
  for (const [subpath, file] of Object.entries(row.entries)) row.exports[subpath] = exportedNames(program, file);
  delete row.entries;
}

const shape = shapeFigures(findShapeOffences());
if (process.argv.includes("--json")) {
  console.log(JSON.stringify({ packages: rows, shape }, null, 2));
} else {
  const header = [
    "package",
    "src files",
    "test files",
    "median src file",
    "largest src file",
    "exports (values + types) per entry",
    "lines > 120",
  ];
  const table = rows.map((row) => [
    row.name,
    String(row.sourceFiles),
    String(row.testFiles),
    `${(row.medianBytes / 1024).toFixed(1)} KB`,
    row.largest ? `${(row.largest.bytes / 1024).toFixed(1)} KB ${row.largest.file}` : "-",
    Object.entries(row.exports)
      .map(([subpath, count]) => `${subpath}: ${count.values + count.types} (${count.values} + ${count.types})`)
      .join("; "),
    `${row.linesOver120} of ${row.lines} (${((100 * row.linesOver120) / Math.max(1, row.lines)).toFixed(1)}%)`,
  ]);
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
  for (const line of table) console.log(`| ${line.join(" | ")} |`);
  const total = (key) => rows.reduce((sum, row) => sum + row[key], 0);
  const exportsTotal = rows.reduce(
    (sum, row) => sum + Object.values(row.exports).reduce((n, count) => n + count.values + count.types, 0),
    0,
  );
  const longShare = ((100 * total("linesOver120")) / Math.max(1, total("lines"))).toFixed(1);
  console.log(
    `| all packages | ${total("sourceFiles")} | ${total("testFiles")} | | | ${exportsTotal} | ${total("linesOver120")} of ${total("lines")} (${longShare}%) |`,
  );
  console.log(
    `\ncode shape (packages/*/src, tests and fixtures aside): ${shape.filesOver450Lines} files over 450 lines, ` +
      `${shape.functionsOver25} functions over cyclomatic complexity 25, ${shape.filesInCycles} files in import cycles`,
  );
}
