import { describe, expect, it } from "vitest";
import { validateFrontmatter } from "./validate-frontmatter.js";

const check = (frontmatter: Record<string, unknown>, dirName?: string) =>
  validateFrontmatter(
    frontmatter,
    dirName === undefined ? { file: "/s/SKILL.md" } : { file: "/s/SKILL.md", dirName },
  ).map((diagnostic) => diagnostic.code);
const named = (name: unknown, dirName?: string) => check({ name, description: "Does things." }, dirName);

describe("validateFrontmatter: name", () => {
  it("accepts Chinese and Russian names matching their folder", () => {
    expect(named("中文技能", "中文技能")).toEqual([]);
    expect(named("навык-поиска", "навык-поиска")).toEqual([]);
  });

  it("accepts Arabic-Indic digits and refuses underscores, spaces, dots and emoji", () => {
    expect(named("skill-٣")).toEqual([]);
    for (const name of ["a_b", "a b", "a.b", "skill-🚀"]) expect(named(name)).toEqual(["name-chars"]);
  });

  it("normalises the name with NFKC before checking, and compares it with the NFKC folder name", () => {
    expect(named("ｓｋｉｌｌ", "skill")).toEqual([]);
    expect(named("skill", "ｓｋｉｌｌ")).toEqual([]);
    expect(named("ﬁle", "file")).toEqual([]);
  });

  it("strips surrounding whitespace before checking", () => {
    expect(named("  pdf  ", "pdf")).toEqual([]);
  });

  it("reports the six independent name checks in the reference's order", () => {
    expect(named("-Bad--Name_", "other")).toEqual([
      "name-lowercase",
      "name-hyphen-edge",
      "name-consecutive-hyphens",
      "name-chars",
      "name-dir-mismatch",
    ]);
  });

  it("counts name length in code points after NFKC: 64 CJK characters pass, 65 fail", () => {
    expect(named("技".repeat(64))).toEqual([]);
    expect(named("技".repeat(65))).toEqual(["name-too-long"]);
  });

  it("reports name-missing, and name-empty for blank or non-string names without further name checks", () => {
    expect(check({ description: "x" })).toEqual(["name-missing"]);
    expect(named("   ", "x")).toEqual(["name-empty"]);
    expect(named({ nested: "map" }, "x")).toEqual(["name-empty"]);
    expect(named(["list"], "x")).toEqual(["name-empty"]);
  });

  it("compares the folder name case-sensitively", () => {
    expect(named("pdf", "PDF")).toEqual(["name-dir-mismatch"]);
  });
});

describe("validateFrontmatter: description, compatibility, unknown fields", () => {
  it("counts description length in code points: 1,024 emoji pass, 1,025 fail", () => {
    expect(check({ name: "a", description: "😀".repeat(1024) })).toEqual([]);
    expect(check({ name: "a", description: "😀".repeat(1025) })).toEqual(["description-too-long"]);
  });

  it("measures the description unstripped, so a block scalar's trailing newline counts", () => {
    expect(check({ name: "a", description: `${"x".repeat(1024)}\n` })).toEqual(["description-too-long"]);
  });

  it("reports description-missing, and description-empty for blank or non-string values", () => {
    expect(check({ name: "a" })).toEqual(["description-missing"]);
    expect(check({ name: "a", description: " \n " })).toEqual(["description-empty"]);
    expect(check({ name: "a", description: ["x"] })).toEqual(["description-empty"]);
  });

  it("checks compatibility only when present: type, 500 code points, and an empty-value warning", () => {
    expect(check({ name: "a", description: "x", compatibility: "é".repeat(500) })).toEqual([]);
    expect(check({ name: "a", description: "x", compatibility: "é".repeat(501) })).toEqual(["compatibility-too-long"]);
    expect(check({ name: "a", description: "x", compatibility: { node: "20" } })).toEqual(["compatibility-type"]);
    expect(check({ name: "a", description: "x", compatibility: "" })).toEqual(["compatibility-empty"]);
  });

  it("reports one unknown-field per key outside the spec, sorted, keys compared case-sensitively", () => {
    const diagnostics = validateFrontmatter(
      { name: "a", description: "x", version: "1", Name: "A", author: "me" },
      { file: "/s/SKILL.md" },
    );
    expect(
      diagnostics.filter((diagnostic) => diagnostic.code === "unknown-field").map((diagnostic) => diagnostic.field),
    ).toEqual(["Name", "author", "version"]);
  });

  it("does not fail on license, allowed-tools or metadata shapes, only warns", () => {
    const diagnostics = validateFrontmatter(
      { name: "a", description: "x", license: ["MIT"], "allowed-tools": { a: "b" }, metadata: { team: { name: "x" } } },
      { file: "/s/SKILL.md" },
    );
    expect(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity])).toEqual([
      ["license-type", "warning"],
      ["metadata-type", "warning"],
      ["allowed-tools-type", "warning"],
    ]);
  });

  it("names the file and the field in every message", () => {
    const [diagnostic] = validateFrontmatter({ name: "Bad", description: "x" }, { file: "/s/SKILL.md" });
    expect(diagnostic).toMatchObject({ code: "name-lowercase", path: "/s/SKILL.md", field: "name" });
    expect(diagnostic?.message).toBe("/s/SKILL.md: skill name 'Bad' must be lowercase");
  });
});
