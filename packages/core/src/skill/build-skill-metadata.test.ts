import { describe, expect, it } from "vitest";
import { buildSkillMetadata, parseAllowedTools } from "./build-skill-metadata.js";

const context = {
  dir: "/s/a",
  file: "/s/a/SKILL.md",
  origin: { sourceId: "dir:/s", layer: "project", kind: "directory" } as const,
  hash: "h",
  diagnostics: [],
};

describe("parseAllowedTools", () => {
  it("splits a string on spaces and commas but not inside parentheses", () => {
    expect(parseAllowedTools("Read Edit Bash(git:*) Bash(gh issue:*)")).toEqual([
      "Read",
      "Edit",
      "Bash(git:*)",
      "Bash(gh issue:*)",
    ]);
    expect(parseAllowedTools("Bash, Write,Read")).toEqual(["Bash", "Write", "Read"]);
  });

  it("keeps YAML list entries whole (spaces included) and drops non-strings", () => {
    expect(parseAllowedTools(["Azure MCP/documentation", " Read ", { a: "b" }, ""])).toEqual([
      "Azure MCP/documentation",
      "Read",
    ]);
  });

  it("gives an empty list when absent or of another type", () => {
    expect(parseAllowedTools(undefined)).toEqual([]);
    expect(parseAllowedTools({ a: "b" })).toEqual([]);
  });
});

describe("buildSkillMetadata", () => {
  it("trims name and description, keeps spec fields and moves other keys to extra", () => {
    const metadata = buildSkillMetadata(
      {
        name: " a ",
        description: "\nDoes a.\n",
        license: "MIT",
        compatibility: "node 20",
        metadata: { team: "x" },
        version: "1.0",
        requires: ["b"],
      },
      context,
    );
    expect(metadata).toMatchObject({
      name: "a",
      description: "Does a.",
      license: "MIT",
      compatibility: "node 20",
      metadata: { team: "x" },
      allowedTools: [],
      extra: { version: "1.0", requires: ["b"] },
    });
  });

  it("returns undefined when name or description is unusable", () => {
    expect(buildSkillMetadata({ name: "a" }, context)).toBeUndefined();
    expect(buildSkillMetadata({ name: " ", description: "x" }, context)).toBeUndefined();
    expect(buildSkillMetadata({ name: ["a"], description: "x" }, context)).toBeUndefined();
  });

  it("stores a __proto__ key in extra as data, leaving extra's prototype alone", () => {
    const frontmatter = JSON.parse('{"name":"a","description":"x","__proto__":{"polluted":"yes"}}') as Record<
      string,
      unknown
    >;
    const metadata = buildSkillMetadata(frontmatter, context);
    expect(Object.keys(metadata?.extra ?? {})).toEqual(["__proto__"]);
    expect((metadata?.extra as Record<string, unknown>).polluted).toBeUndefined();
  });
});
