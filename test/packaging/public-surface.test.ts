// The public surface of the packages, checked against the rule in each README's "Package entry points" section:
// each name lives in one entry of its package; every type of the package that an entry's functions take or return is
// exported by that entry or the package root (so an app can name it, and TypeScript can emit declarations for
// inferred types); every subpath is documented in the package README; every name a doc imports is really exported.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared-paths.js";

interface Entry {
  /** `@skillgraph/core/search` */
  specifier: string;
  packageName: string;
  file: string;
}

const packageDirs = readdirSync(join(REPO_ROOT, "packages")).map((name) => join(REPO_ROOT, "packages", name));
const manifests = packageDirs.map((dir) => ({ dir, ...JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }));
const entries: Entry[] = manifests.flatMap((manifest) =>
  Object.entries(manifest.exports as Record<string, string | Record<string, string>>)
    .filter((pair): pair is [string, Record<string, string>] => typeof pair[1] === "object")
    .map(([subpath, target]) => ({
      specifier: subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
      packageName: manifest.name as string,
      file: join(manifest.dir, target["@skillgraph/source"]!),
    })),
);

const program = ts.createProgram(
  entries.map((entry) => entry.file),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    customConditions: ["@skillgraph/source"],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  },
);
const checker = program.getTypeChecker();
const resolved = (symbol: ts.Symbol) =>
  symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
/** The exported symbols of each entry, by name. */
const exportsOf = new Map(
  entries.map((entry) => {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry.file)!)!;
    return [entry.specifier, new Map(checker.getExportsOfModule(module).map((symbol) => [symbol.name, symbol]))];
  }),
);
const packageOfFile = (fileName: string) =>
  manifests.find((manifest) => fileName.startsWith(`${manifest.dir}/src/`))?.name as string | undefined;

/** Named types declared in `packageName` that the entry's API mentions (parameters, results, members), with a path. */
function typesMentioned(entry: Entry): Map<ts.Symbol, string> {
  const found = new Map<ts.Symbol, string>();
  const seen = new Set<ts.Type>();
  const visit = (type: ts.Type, via: string, depth: number): void => {
    if (depth > 6 || seen.has(type)) return;
    seen.add(type);
    const symbol = type.aliasSymbol ?? type.getSymbol();
    const declaration = symbol?.declarations?.[0];
    const fileName = declaration?.getSourceFile().fileName ?? "";
    if (fileName.includes("/node_modules/")) return;
    const named = ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class | ts.SymbolFlags.Enum;
    if (symbol && symbol.flags & named && packageOfFile(fileName) === entry.packageName && !found.has(symbol))
      found.set(symbol, via);
    for (const argument of type.aliasTypeArguments ?? []) visit(argument, via, depth + 1);
    if (type.isUnionOrIntersection()) for (const part of type.types) visit(part, via, depth + 1);
    if (!(type.flags & ts.TypeFlags.Object)) return;
    if ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference)
      for (const argument of checker.getTypeArguments(type as ts.TypeReference)) visit(argument, via, depth + 1);
    for (const property of checker.getPropertiesOfType(type)) {
      const at = property.valueDeclaration ?? property.declarations?.[0];
      if (at) visit(checker.getTypeOfSymbolAtLocation(property, at), `${via}.${property.name}`, depth + 1);
    }
    for (const signature of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
      for (const parameter of signature.getParameters())
        visit(
          checker.getTypeOfSymbolAtLocation(parameter, parameter.valueDeclaration!),
          `${via}(${parameter.name})`,
          depth + 1,
        );
      visit(signature.getReturnType(), `${via}()`, depth + 1);
    }
  };
  for (const exported of exportsOf.get(entry.specifier)!.values()) {
    const symbol = resolved(exported);
    const declaration = symbol.declarations?.[0];
    if (!declaration) continue;
    if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class))
      visit(checker.getDeclaredTypeOfSymbol(symbol), symbol.name, 0);
    if (symbol.flags & ts.SymbolFlags.Value)
      visit(checker.getTypeOfSymbolAtLocation(symbol, declaration), symbol.name, 0);
  }
  return found;
}

/** `import { a, type B } from "@skillgraph/x[/sub]"` lines of a markdown file (any code block, runnable or not). */
function documentedImports(file: string): Array<{ name: string; specifier: string; line: number }> {
  const text = readFileSync(file, "utf8");
  const found: Array<{ name: string; specifier: string; line: number }> = [];
  for (const match of text.matchAll(
    /import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"(@skillgraph\/[a-z-]+(?:\/[a-z-]+)?)"/g,
  )) {
    const line = text.slice(0, match.index).split("\n").length;
    for (const item of match[1]!.split(",")) {
      const name = item
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)[0]!;
      if (name) found.push({ name, specifier: match[2]!, line });
    }
  }
  return found;
}

/** Names in the first column of a markdown table headed `| export | ...` (`createSearchIndex(documents)` -> createSearchIndex). */
function documentedExportTables(file: string): Array<{ name: string; line: number }> {
  const lines = readFileSync(file, "utf8").split("\n");
  const found: Array<{ name: string; line: number }> = [];
  let inTable = false;
  lines.forEach((text, index) => {
    if (/^\| *export *\|/.test(text)) inTable = true;
    else if (!text.startsWith("|")) inTable = false;
    else if (inTable && !/^\|[- |]+\|$/.test(text))
      for (const match of (text.split("|")[1] ?? "").matchAll(/`([A-Za-z_$][\w$]*)/g))
        found.push({ name: match[1]!, line: index + 1 });
  });
  return found;
}

const markdownFiles = [
  join(REPO_ROOT, "README.md"),
  ...readdirSync(join(REPO_ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(REPO_ROOT, "docs", name)),
  ...packageDirs.map((dir) => join(dir, "README.md")),
];

describe("public surface", () => {
  it("has subpath entries to check", () => {
    expect(entries.map((entry) => entry.specifier)).toEqual(
      expect.arrayContaining(["@skillgraph/core", "@skillgraph/core/search", "@skillgraph/langgraph/store"]),
    );
  });

  it("exports each name from one entry of its package (./middleware repeats the middleware on purpose)", () => {
    const duplicates: string[] = [];
    for (const manifest of manifests) {
      const home = new Map<string, string>();
      for (const entry of entries.filter((candidate) => candidate.packageName === manifest.name)) {
        if (entry.specifier === "@skillgraph/langgraph/middleware") continue;
        for (const name of exportsOf.get(entry.specifier)!.keys()) {
          if (home.has(name)) duplicates.push(`${name}: ${home.get(name)} and ${entry.specifier}`);
          else home.set(name, entry.specifier);
        }
      }
    }
    expect(duplicates).toEqual([]);
  });

  it("exports every type of the package that an entry's API mentions, from that entry or the package root", () => {
    const unreachable: string[] = [];
    for (const entry of entries) {
      const own = new Set([...exportsOf.get(entry.specifier)!.values()].map(resolved));
      const root = new Set([...exportsOf.get(entry.packageName)!.values()].map(resolved));
      for (const [symbol, via] of typesMentioned(entry))
        if (!own.has(symbol) && !root.has(symbol)) unreachable.push(`${entry.specifier}: ${symbol.name} (via ${via})`);
    }
    expect(unreachable).toEqual([]);
  });

  it("documents every subpath in its package README's 'Package entry points' section", () => {
    const undocumented: string[] = [];
    for (const manifest of manifests) {
      if (manifest.private) continue;
      const readme = readFileSync(join(manifest.dir, "README.md"), "utf8");
      const section = readme.split(/^## /m).find((part) => part.startsWith("Package entry points")) ?? "";
      for (const entry of entries.filter((candidate) => candidate.packageName === manifest.name))
        if (entry.specifier !== manifest.name || section === "")
          if (!section.includes(`\`${entry.specifier}\``))
            undocumented.push(`${manifest.name} README: ${entry.specifier}`);
    }
    expect(undocumented).toEqual([]);
  });

  it("every name a doc or README imports from @skillgraph/* is exported by that entry", () => {
    const wrong: string[] = [];
    for (const file of markdownFiles)
      for (const { name, specifier, line } of documentedImports(file)) {
        const exported = exportsOf.get(specifier);
        if (!exported) wrong.push(`${file.slice(REPO_ROOT.length + 1)}:${line}: no entry ${specifier}`);
        else if (!exported.has(name))
          wrong.push(`${file.slice(REPO_ROOT.length + 1)}:${line}: ${specifier} does not export ${name}`);
      }
    expect(wrong).toEqual([]);
  });

  it("every name in a doc's `| export |` table is exported by some entry", () => {
    const everyName = new Set([...exportsOf.values()].flatMap((names) => [...names.keys()]));
    const tables = markdownFiles.flatMap((file) =>
      documentedExportTables(file).map((entry) => ({ ...entry, file: file.slice(REPO_ROOT.length + 1) })),
    );
    expect(tables.length).toBeGreaterThan(0);
    expect(
      tables.filter(({ name }) => !everyName.has(name)).map(({ file, line, name }) => `${file}:${line}: ${name}`),
    ).toEqual([]);
  });
});
