#!/usr/bin/env node
// The code-shape rules for `packages/*/src` (tests and fixtures aside): no file over 450 lines, no function over
// cyclomatic complexity 25, no function with more than 4 positional parameters (take an object), no import cycle. oxlint checks them (`.oxlintrc.shape.json`); this script compares what it
// finds with the recorded debt (`scripts/code-shape-debt.json`) and fails on anything new, and on a debt entry that no
// longer offends (so the list only shrinks).
// Usage: node scripts/check-code-shape.mjs [--json] [--write-debt]
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const debtFile = join(root, "scripts", "code-shape-debt.json");

/** Every offence oxlint reports under the shape rules, as `{ rule, file, subject, value }`. */
export function findShapeOffences() {
  const result = spawnSync(
    join(root, "node_modules", ".bin", "oxlint"),
    ["-c", ".oxlintrc.shape.json", "-f", "json", "packages"],
    { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  const start = result.stdout.indexOf("{");
  if (start < 0) throw new Error(`oxlint printed no JSON: ${result.stderr || result.stdout}`);
  const { diagnostics } = JSON.parse(result.stdout.slice(start));
  const offences = new Map();
  for (const diagnostic of diagnostics) {
    if (!diagnostic.code) throw new Error(`oxlint could not check ${diagnostic.filename}: ${diagnostic.message}`);
    const rule = diagnostic.code.replace(/^[a-z-]+\((.*)\)$/, "$1");
    const subject =
      rule === "complexity"
        ? (/function `([^`]+)`/.exec(diagnostic.message)?.[1] ?? "(anonymous)")
        : rule === "max-params"
          ? (/Function '([^']+)'/.exec(diagnostic.message)?.[1] ?? "(anonymous)")
          : "";
    const value = Number(/(\d+)\. Maximum/.exec(diagnostic.message)?.[1] ?? /\((\d+)\)/.exec(diagnostic.message)?.[1]);
    const key = `${rule} ${diagnostic.filename} ${subject}`;
    if (!offences.has(key)) offences.set(key, { rule, file: diagnostic.filename, subject, value });
  }
  return [...offences.values()].sort((a, b) => `${a.rule}${a.file}`.localeCompare(`${b.rule}${b.file}`));
}

/** Counts per rule: files over the line limit, functions over the complexity or parameter limit, files in a cycle. */
export function shapeFigures(offences) {
  const count = (rule) => offences.filter((offence) => offence.rule === rule).length;
  return {
    filesOver450Lines: count("max-lines"),
    functionsOver25: count("complexity"),
    functionsOver4Params: count("max-params"),
    filesInCycles: count("no-cycle"),
  };
}

const keyOf = (offence) => `${offence.rule} ${offence.file} ${offence.subject}`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const offences = findShapeOffences();
  if (process.argv.includes("--write-debt")) {
    writeFileSync(debtFile, `${JSON.stringify(offences, null, 2)}\n`);
    console.log(`recorded ${offences.length} offences in ${debtFile}`);
    process.exit(0);
  }
  const debt = JSON.parse(readFileSync(debtFile, "utf8"));
  const known = new Set(debt.map(keyOf));
  const found = new Set(offences.map(keyOf));
  const added = offences.filter((offence) => !known.has(keyOf(offence)));
  const paid = debt.filter((offence) => !found.has(keyOf(offence)));
  if (process.argv.includes("--json")) console.log(JSON.stringify({ figures: shapeFigures(offences), added, paid }));
  else {
    const figures = shapeFigures(offences);
    console.log(
      `code shape: ${figures.filesOver450Lines} files over 450 lines, ${figures.functionsOver25} functions over ` +
        `complexity 25, ${figures.functionsOver4Params} functions with more than 4 positional parameters, ` +
        `${figures.filesInCycles} files in import cycles (recorded debt: ${debt.length})`,
    );
    for (const offence of added)
      console.log(`NEW  ${offence.rule} ${offence.file} ${offence.subject} (${offence.value})`);
    for (const offence of paid)
      console.log(
        `PAID ${offence.rule} ${offence.file} ${offence.subject}: remove it from scripts/code-shape-debt.json`,
      );
  }
  process.exit(added.length > 0 || paid.length > 0 ? 1 : 0);
}
