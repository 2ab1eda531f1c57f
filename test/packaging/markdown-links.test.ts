// Every relative link in the READMEs and guides points to a file or folder that exists (anchors and web links are
// not checked here; TypeDoc checks the guides' anchors when it builds the API reference).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared-paths.js";

const pages = [
  "README.md",
  ".changeset/README.md",
  ...readdirSync(join(REPO_ROOT, "packages")).map((name) => `packages/${name}/README.md`),
  ...readdirSync(join(REPO_ROOT, "examples"))
    .filter((name) => existsSync(join(REPO_ROOT, "examples", name, "README.md")))
    .map((name) => `examples/${name}/README.md`),
  ...readdirSync(join(REPO_ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

describe("markdown links", () => {
  it.each(pages)("%s: every relative link resolves", (page) => {
    const text = readFileSync(join(REPO_ROOT, page), "utf8").replace(/```[\s\S]*?```/g, "");
    const broken: string[] = [];
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!.split("#")[0]!;
      if (target === "" || /^[a-z]+:/i.test(target)) continue;
      if (!existsSync(join(REPO_ROOT, dirname(page), decodeURIComponent(target)))) broken.push(match[1]!);
    }
    expect(broken).toEqual([]);
    // Not published yet: a link to the package's npm page would be a 404.
    expect(text).not.toMatch(/npmjs\.com\/package\/@skillgraph/);
  });
});
