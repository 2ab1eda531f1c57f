import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SKILL_DIAGNOSTIC_CODES } from "./diagnostic-codes.js";
import { SKILLGRAPH_ERROR_CODES, SOURCE_DIAGNOSTIC_CODES, docsUrlForCode } from "./error-codes.js";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../../../..");
const errorsDoc = readFileSync(join(repoRoot, "docs/errors.md"), "utf8");
const sourceSection = errorsDoc.slice(errorsDoc.indexOf("## Source diagnostics"));

/** Non-test TypeScript sources of every package. */
function packageSources(): Array<{ file: string; text: string }> {
  const found: Array<{ file: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== "__fixtures__") walk(path);
      else if (entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
        found.push({ file: path, text: readFileSync(path, "utf8") });
    }
  };
  for (const name of readdirSync(join(repoRoot, "packages"))) walk(join(repoRoot, "packages", name, "src"));
  return found;
}

describe("error and source diagnostic codes", () => {
  it("docs/errors.md has a section (anchor) for every error code and no anchor for a code that does not exist", () => {
    const anchors = [...errorsDoc.matchAll(/<a id="([a-z0-9-]+)"><\/a>/g)].map((match) => match[1]!);
    const errorAnchors = anchors.slice(0, anchors.indexOf("source-missing"));
    expect(errorAnchors.sort()).toEqual(Object.keys(SKILLGRAPH_ERROR_CODES).sort());
  });

  it("docs/errors.md lists every source diagnostic code with its severity", () => {
    for (const [code, { severity }] of Object.entries(SOURCE_DIAGNOSTIC_CODES))
      expect(sourceSection).toContain(`\`${code}\` | ${severity} |`);
    const listed = [...sourceSection.matchAll(/^\| <a id="[^"]+"><\/a>`([a-z-]+)`/gm)].map((match) => match[1]);
    expect(listed.sort()).toEqual(Object.keys(SOURCE_DIAGNOSTIC_CODES).sort());
  });

  it("every code thrown or reported in packages/*/src is in a code table", () => {
    const known = new Set([
      ...Object.keys(SKILLGRAPH_ERROR_CODES),
      ...Object.keys(SOURCE_DIAGNOSTIC_CODES),
      ...Object.keys(SKILL_DIAGNOSTIC_CODES),
    ]);
    const patterns = [
      /new SkillgraphError\(\{\s*code:\s*"([a-z-]+)"/g, // base-class throws
      /folderDiagnostic\(\s*"([a-z-]+)"/g, // source diagnostics
      /code:\s*"((?:source|skill)-[a-z-]+)"/g, // diagnostics built as object literals
      /createDiagnostic\(\s*"([a-z-]+)"/g, // SKILL.md diagnostics
    ];
    const seen: string[] = [];
    const unknown: string[] = [];
    for (const { file, text } of packageSources()) {
      for (const pattern of patterns) {
        for (const match of text.matchAll(pattern)) {
          seen.push(match[1]!);
          if (!known.has(match[1]!)) unknown.push(`${file.slice(repoRoot.length + 1)}: ${match[1]}`);
        }
      }
    }
    expect(unknown).toEqual([]);
    expect(seen).toEqual(
      expect.arrayContaining([
        "package-not-found",
        "source-cycle",
        "source-duplicate-link",
        "skill-load-failed",
        "source-failed",
      ]),
    );
  });

  it("links error codes to errors.md and SKILL.md codes to diagnostics.md", () => {
    expect(docsUrlForCode("skill-drift")).toMatch(/\/docs\/errors\.md#skill-drift$/);
    expect(docsUrlForCode("source-cycle")).toMatch(/\/docs\/errors\.md#source-cycle$/);
    expect(docsUrlForCode("yaml-invalid")).toMatch(/\/docs\/diagnostics\.md#yaml-invalid$/);
  });
});
