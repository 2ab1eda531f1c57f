import { describe, expect, it } from "vitest";
import { buildSkillMetadata } from "./build-skill-metadata.js";
import { installHints } from "./frontmatter-dialects.js";
import { validateFrontmatter } from "./validate-frontmatter.js";

const context = {
  dir: "/s/x",
  file: "/s/x/SKILL.md",
  origin: { sourceId: "dir:/s", layer: "project" as const, kind: "directory" as const },
  hash: "h",
  diagnostics: [],
};
const base = { name: "x", description: "Does x." };

describe("frontmatter dialects", () => {
  it("reads spring-ai-alibaba's allowed_tools / allowedTools and tama's tools as the tools the skill unlocks", () => {
    expect(buildSkillMetadata({ ...base, allowed_tools: "Read Bash(git:*)" }, context)!.allowedTools).toEqual([
      "Read",
      "Bash(git:*)",
    ]);
    expect(buildSkillMetadata({ ...base, allowedTools: ["make_pdf"] }, context)!.allowedTools).toEqual(["make_pdf"]);
    expect(buildSkillMetadata({ ...base, tools: ["search"] }, context)!.allowedTools).toEqual(["search"]);
    expect(buildSkillMetadata({ ...base, "allowed-tools": "a", tools: ["b"] }, context)!.allowedTools).toEqual(["a"]);
  });

  it("reads tama's depends (bins, apt, uv), keeps only plain package names, and gives install commands without running them", () => {
    const metadata = buildSkillMetadata(
      { ...base, tama: { depends: { bins: ["pandoc", "rm -rf /"], apt: ["poppler-utils"], uv: "pypdf, openpyxl" } } },
      context,
    )!;
    expect(metadata.dependencies).toEqual({ bins: ["pandoc"], apt: ["poppler-utils"], uv: ["pypdf", "openpyxl"] });
    expect(installHints(metadata.dependencies!)).toEqual([
      "apt-get install -y poppler-utils",
      "uv pip install pypdf openpyxl",
    ]);
  });

  it("reports each dialect key as a warning with the spec's spelling, besides the spec's unknown-field error", () => {
    const diagnostics = validateFrontmatter(
      { ...base, allowedTools: ["a"], tama: {} },
      { file: "/s/x/SKILL.md", dirName: "x" },
    );
    const dialect = diagnostics.filter((diagnostic) => diagnostic.code === "dialect-field");
    expect(dialect.map((diagnostic) => [diagnostic.field, diagnostic.severity])).toEqual([
      ["allowedTools", "warning"],
      ["tama", "warning"],
    ]);
    expect(dialect[0]!.message).toContain("rename 'allowedTools' (spring-ai-alibaba) to 'allowed-tools'");
    expect(
      diagnostics.filter((diagnostic) => diagnostic.code === "unknown-field").map((diagnostic) => diagnostic.field),
    ).toEqual(["allowedTools", "tama"]);
  });
});
