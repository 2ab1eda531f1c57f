import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SKILL_DIAGNOSTIC_CODES, type SkillDiagnosticCode } from "./diagnostic-codes.js";
import { skillText, useTempFolder, yamlBomb } from "../skill/__fixtures__/skill-folders.js";
import { validateSkill, type ValidateSkillOptions } from "../skill/validate-skill.js";

const temp = useTempFolder("skillgraph-codes-");
const valid = (name: string) => `name: ${name}\ndescription: Does things.`;

/** One small fixture per diagnostic code: returns the folder to validate (and options). */
const fixtures: Record<SkillDiagnosticCode, () => { dir: string; options?: ValidateSkillOptions }> = {
  "skill-dir-missing": () => ({ dir: join(temp.root(), "does-not-exist") }),
  "skill-dir-not-directory": () => {
    const file = join(temp.root(), "plain-file");
    writeFileSync(file, "x");
    return { dir: file };
  },
  "skill-md-missing": () => {
    const dir = join(temp.root(), "empty-folder", "inner");
    mkdirSync(dir, { recursive: true });
    return { dir: join(temp.root(), "empty-folder") };
  },
  "frontmatter-missing": () => ({ dir: temp.skill("fm-missing", "# Just markdown\n") }),
  "frontmatter-unclosed": () => ({ dir: temp.skill("fm-unclosed", "---\nname: fm-unclosed\ndescription: x\n") }),
  "yaml-invalid": () => ({ dir: temp.skill("yaml-bad", skillText("name: yaml-bad\ndescription: a: b")) }),
  "frontmatter-not-mapping": () => ({ dir: temp.skill("fm-list", skillText("- a\n- b")) }),
  "unknown-field": () => ({ dir: temp.skill("unknown", skillText(`${valid("unknown")}\nversion: 1.0`)) }),
  "dialect-field": () => ({ dir: temp.skill("dialect", skillText(`${valid("dialect")}\nallowed_tools: Read`)) }),
  "name-missing": () => ({ dir: temp.skill("no-name", skillText("description: x")) }),
  "name-empty": () => ({ dir: temp.skill("empty-name", skillText("name: '  '\ndescription: x")) }),
  "name-too-long": () => ({ dir: temp.skill("a".repeat(65), skillText(valid("a".repeat(65)))) }),
  "name-lowercase": () => ({ dir: temp.skill("Upper", skillText(valid("Upper"))) }),
  "name-hyphen-edge": () => ({ dir: temp.skill("-edge", skillText(valid("-edge"))) }),
  "name-consecutive-hyphens": () => ({ dir: temp.skill("a--b", skillText(valid("a--b"))) }),
  "name-chars": () => ({ dir: temp.skill("a_b", skillText(valid("a_b"))) }),
  "name-dir-mismatch": () => ({ dir: temp.skill("folder-name", skillText(valid("other-name"))) }),
  "description-missing": () => ({ dir: temp.skill("no-desc", skillText("name: no-desc")) }),
  "description-empty": () => ({ dir: temp.skill("empty-desc", skillText("name: empty-desc\ndescription:")) }),
  "description-too-long": () => ({
    dir: temp.skill("long-desc", skillText(`name: long-desc\ndescription: ${"x".repeat(1025)}`)),
  }),
  "compatibility-type": () => ({
    dir: temp.skill("compat-list", skillText(`${valid("compat-list")}\ncompatibility:\n  - node`)),
  }),
  "compatibility-too-long": () => ({
    dir: temp.skill("compat-long", skillText(`${valid("compat-long")}\ncompatibility: ${"y".repeat(501)}`)),
  }),
  "not-a-regular-file": () => {
    const dir = join(temp.root(), "dir-as-file");
    mkdirSync(join(dir, "SKILL.md"), { recursive: true });
    return { dir };
  },
  "symlink-escape": () => {
    const outside = temp.skill("outside-target", skillText(valid("escape")));
    const sourceRoot = join(temp.root(), "source-root");
    const dir = join(sourceRoot, "escape");
    mkdirSync(dir, { recursive: true });
    symlinkSync(join(outside, "SKILL.md"), join(dir, "SKILL.md"));
    return { dir, options: { root: sourceRoot } };
  },
  "file-too-large": () => ({ dir: temp.skill("too-large", skillText(valid("too-large"))), options: { maxBytes: 16 } }),
  "file-unreadable": () => ({ dir: join(temp.root(), "n".repeat(300)) }),
  "encoding-invalid": () => ({
    dir: temp.skill(
      "latin1",
      Buffer.concat([Buffer.from("---\nname: latin1\ndescription: caf"), Buffer.from([0xe9]), Buffer.from("\n---\n")]),
    ),
  }),
  "yaml-alias-limit": () => ({ dir: temp.skill("bomb", skillText(yamlBomb())) }),
  "yaml-too-deep": () => ({
    dir: temp.skill("deep", skillText(`${valid("deep")}\nx: ${"[".repeat(100)}${"]".repeat(100)}`)),
  }),
  "utf8-bom": () => ({ dir: temp.skill("bom", `\uFEFF${skillText(valid("bom"))}`) }),
  "skill-md-lowercase": () => ({ dir: temp.skill("lower-file", skillText(valid("lower-file")), "skill.md") }),
  "compatibility-empty": () => ({
    dir: temp.skill("compat-empty", skillText(`${valid("compat-empty")}\ncompatibility: ""`)),
  }),
  "license-type": () => ({
    dir: temp.skill("license-map", skillText(`${valid("license-map")}\nlicense:\n  spdx: MIT`)),
  }),
  "metadata-type": () => ({
    dir: temp.skill("metadata-string", skillText(`${valid("metadata-string")}\nmetadata: team-a`)),
  }),
  "allowed-tools-type": () => ({
    dir: temp.skill("tools-map", skillText(`${valid("tools-map")}\nallowed-tools:\n  bash: yes`)),
  }),
  "body-too-long": () => ({
    dir: temp.skill(
      "long-body",
      skillText(valid("long-body"), Array.from({ length: 501 }, (_, index) => `line ${index}`).join("\n")),
    ),
  }),
  "body-empty": () => ({ dir: temp.skill("no-body", skillText(valid("no-body"), "")) }),
  "description-placeholder": () => ({
    dir: temp.skill(
      "placeholder",
      skillText("name: placeholder\ndescription: Describe what placeholder does and when to use it (edit me)."),
    ),
  }),
};

describe("every diagnostic code", () => {
  it("has a fixture for each code in the table", () => {
    expect(Object.keys(fixtures).sort()).toEqual(Object.keys(SKILL_DIAGNOSTIC_CODES).sort());
  });

  it.each(Object.keys(fixtures) as SkillDiagnosticCode[])(
    "is reported by validateSkill for its fixture: %s",
    async (code) => {
      const { dir, options } = fixtures[code]();
      const result = await validateSkill(dir, options);
      const issue = result.issues.find((candidate) => candidate.code === code);
      expect(issue, JSON.stringify(result.issues)).toBeDefined();
      expect(issue?.severity).toBe(SKILL_DIAGNOSTIC_CODES[code].severity);
      expect(issue?.message.length).toBeGreaterThan(issue?.path.length ?? 0);
      expect(issue?.message.startsWith(issue.path)).toBe(true);
      expect(result.success).toBe(!result.issues.some((candidate) => candidate.severity === "error"));
    },
  );
});
