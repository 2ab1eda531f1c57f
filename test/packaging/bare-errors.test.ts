// Repository check: the packages throw typed errors (SkillgraphError subclasses, the CLI's CliError/UsageError), never a
// bare Error/TypeError, except for the few internal invariants listed below with the reason each one may stay.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared-paths.js";

/** A bare throw (or rejection) of a built-in error class. */
const BARE_THROW =
  /throw\s+new\s+(?:Error|TypeError|RangeError|SyntaxError)\s*\(|throw\s+Object\.assign\(\s*new\s+Error\s*\(|(?:Promise\.)?reject\(\s*new\s+(?:Error|TypeError|RangeError)\s*\(/g;

/** Bare throws that may stay: file, a snippet of the throwing line, and why no caller input can reach it. */
const ALLOWED: ReadonlyArray<{ file: string; snippet: string; reason: string }> = [
  {
    file: "packages/core/src/search/search-index.ts",
    snippet: "not an index built by createSearchIndex",
    reason:
      "invariant: stateOfIndex is internal and only ever given indexes this module built (a programming error otherwise)",
  },
  {
    file: "packages/shell/src/repository/sanitized-repositories.ts",
    snippet: "is under no repository root",
    reason: "invariant: every git folder the scan returns was found under one of the roots it was given",
  },
  {
    file: "packages/core/src/registry/create-skill-registry.ts",
    snippet: "registry used before its first load",
    reason: "invariant: createSkillRegistry awaits the first load before it returns the registry, so no caller sees it",
  },
  {
    file: "packages/core/src/safe-fs/confined-folder.ts",
    snippet: 'is not a folder`), { code: "ENOTDIR" }',
    reason:
      "openConfinedFolder's root path comes from the application; it mirrors the ENOTDIR system error open(2) gives " +
      "for the same input, so callers handle one kind of error (fs errors with a code)",
  },
  {
    file: "packages/core/src/search/search-index.ts",
    snippet: "base is not an index built by createSearchIndex",
    reason:
      "invariant: indexAnalyzedDocuments is internal (the registry passes back an index it built itself); no " +
      "public entry takes the base index from a caller",
  },
  {
    file: "packages/shell/src/command/bash-parser.ts",
    snippet: "the bash parser is not loaded",
    reason:
      "invariant: withBashTree is internal; every path that reaches it (tool calls, the pre-check once the grammar " +
      "is ready) awaits loadBashParser first, so no caller input can reach it",
  },
  {
    file: "packages/shell/src/command/bash-parser.ts",
    snippet: "the bash parser returned no tree",
    reason:
      "invariant: web-tree-sitter returns null only when parsing is cancelled or timed out, and no timeout or " +
      "cancellation flag is ever set on this parser",
  },
  {
    file: "packages/cli/src/docs/help-docs.ts",
    snippet: "docs name an unknown command",
    reason:
      "maintainer tool (regenerates the help blocks of docs/*.md); the help-docs test fails on it, users never run it",
  },
];

function sources(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "__fixtures__" && entry.name !== "node_modules") sources(path, found);
    else if (entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name)) found.push(path);
  }
  return found;
}

/** Every bare throw in packages/<name>/src, as `file: line text`. */
function bareThrows(): Array<{ file: string; line: string }> {
  const hits: Array<{ file: string; line: string }> = [];
  for (const name of readdirSync(join(REPO_ROOT, "packages"))) {
    for (const path of sources(join(REPO_ROOT, "packages", name, "src"))) {
      const text = readFileSync(path, "utf8");
      for (const match of text.matchAll(BARE_THROW)) {
        const start = text.lastIndexOf("\n", match.index) + 1;
        const end = text.indexOf("\n", match.index + match[0].length);
        // The formatter may break the message onto the next line: keep it for the snippet comparison.
        const next = text.indexOf("\n", end + 1);
        hits.push({ file: relative(REPO_ROOT, path), line: text.slice(start, next === -1 ? undefined : next).trim() });
      }
    }
  }
  return hits;
}

describe("typed errors on public paths", () => {
  it("packages/*/src throw no bare Error/TypeError outside the allow-list (each entry says why it may stay)", () => {
    const hits = bareThrows();
    const unexplained = hits.filter(
      (hit) => !ALLOWED.some((allowed) => allowed.file === hit.file && hit.line.includes(allowed.snippet)),
    );
    expect(unexplained.map((hit) => `${hit.file}: ${hit.line}`)).toEqual([]);
    // A stale entry (its throw was removed or reworded) must leave the list, so the list stays true.
    const stale = ALLOWED.filter(
      (allowed) => !hits.some((hit) => allowed.file === hit.file && hit.line.includes(allowed.snippet)),
    );
    expect(stale.map((allowed) => allowed.file)).toEqual([]);
    for (const allowed of ALLOWED) expect(allowed.reason.length).toBeGreaterThan(20);
  });

  it("the scan finds the bare throws it is meant to find", () => {
    const sample = [
      'throw new Error("x")',
      "throw new TypeError(`y`)",
      'throw Object.assign(new Error("z"), { code: "E" })',
      'return Promise.reject(new Error("w"))',
      'throw new SkillgraphError({ code: "invalid-options", message: "fine" })',
    ].join("\n");
    expect([...sample.matchAll(BARE_THROW)].length).toBe(4);
  });
});
