import { describe, expect, it } from "vitest";
import { parseSkillMd } from "./parse-skill-md.js";
import { skillText, yamlBomb } from "./__fixtures__/skill-folders.js";

const file = "/skills/demo/SKILL.md";
const parse = (text: string, dirName: string | undefined = "demo") =>
  parseSkillMd(text, dirName === undefined ? { file } : { file, dirName });
const codes = (text: string, dirName?: string) => parse(text, dirName).diagnostics.map((diagnostic) => diagnostic.code);
const errorCodes = (text: string) =>
  parse(text)
    .diagnostics.filter((diagnostic) => diagnostic.severity === "error")
    .map((diagnostic) => diagnostic.code);
const demo = "name: demo\ndescription: Demo skill.";

describe("parseSkillMd: splitting and line ends", () => {
  it("returns the frontmatter mapping and the trimmed body of a valid file with no diagnostics", () => {
    const result = parse(skillText(demo, "\n\n# Title\n\nText.\n\n"));
    expect(result.frontmatter).toEqual({ name: "demo", description: "Demo skill." });
    expect(result.body).toBe("# Title\n\nText.");
    expect(result.diagnostics).toEqual([]);
  });

  it("reads CRLF and CR-only files exactly like LF files", () => {
    const lf = parse(skillText(demo, "line one\nline two"));
    const crlf = parse(skillText(demo, "line one\nline two").replace(/\n/g, "\r\n"));
    const cr = parse(skillText(demo, "line one\nline two").replace(/\n/g, "\r"));
    expect(crlf).toEqual(lf);
    expect(cr).toEqual(lf);
    expect(lf.body).toBe("line one\nline two");
  });

  it("strips a UTF-8 BOM with a warning instead of failing like the reference", () => {
    const result = parse(`\uFEFF${skillText(demo)}`);
    expect(result.frontmatter?.name).toBe("demo");
    expect(result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity])).toEqual([
      ["utf8-bom", "warning"],
    ]);
  });

  it("reports frontmatter-missing for an empty file, a leading blank line and text before the opener", () => {
    expect(errorCodes("")).toEqual(["frontmatter-missing"]);
    expect(errorCodes(`\n${skillText(demo)}`)).toEqual(["frontmatter-missing"]);
    expect(errorCodes(`# Title\n${skillText(demo)}`)).toEqual(["frontmatter-missing"]);
  });

  it("reports frontmatter-unclosed for '---' alone and for a frontmatter never closed", () => {
    expect(errorCodes("---")).toEqual(["frontmatter-unclosed"]);
    expect(errorCodes("---\n")).toEqual(["frontmatter-unclosed"]);
    expect(errorCodes(`---\n${demo}\n# Body`)).toEqual(["frontmatter-unclosed"]);
  });

  it("does not close the frontmatter at a '---' inside a value or a table rule (unlike the reference's substring split)", () => {
    expect(parse(skillText('name: demo\ndescription: "before---after"')).frontmatter?.description).toBe(
      "before---after",
    );
    expect(errorCodes(`---\n${demo}\n\n| a | b |\n|---|---|\n`)).toEqual(["frontmatter-unclosed"]);
  });

  it("accepts trailing blanks on the delimiter lines", () => {
    expect(parse(`--- \n${demo}\n---\t\nBody`).body).toBe("Body");
  });

  it("reports frontmatter-not-mapping for an empty frontmatter, a list and a scalar", () => {
    expect(errorCodes("---\n---\nBody")).toEqual(["frontmatter-not-mapping"]);
    expect(errorCodes("---\n# only a comment\n---\nBody")).toEqual(["frontmatter-not-mapping"]);
    expect(errorCodes(skillText("- a\n- b"))).toEqual(["frontmatter-not-mapping"]);
    expect(errorCodes(skillText("just text"))).toEqual(["frontmatter-not-mapping"]);
  });

  it("treats binary garbage as a file without frontmatter", () => {
    const garbage = String.fromCharCode(...Array.from({ length: 512 }, (_, index) => (index * 7919) % 256));
    expect(errorCodes(garbage)).toEqual(["frontmatter-missing"]);
  });
});

describe("parseSkillMd: YAML read like strictyaml", () => {
  it("keeps every scalar a string: numbers, booleans, null, ~, dates and empty values", () => {
    const result = parse(
      skillText(`${demo}\nmetadata:\n  n: 42\n  f: 1.0\n  b: true\n  y: yes\n  z: null\n  t: ~\n  d: 2024-01-01\n  e:`),
    );
    expect(result.frontmatter?.metadata).toEqual({
      n: "42",
      f: "1.0",
      b: "true",
      y: "yes",
      z: "null",
      t: "~",
      d: "2024-01-01",
      e: "",
    });
  });

  it("drops comments and keeps block scalar chomping", () => {
    const result = parse(
      skillText("name: demo # the name\ndescription: |\n  Line one.\n  Line two.\nlicense: >-\n  folded\n  text"),
    );
    expect(result.frontmatter).toEqual({ name: "demo", description: "Line one.\nLine two.\n", license: "folded text" });
  });

  it("reports yaml-invalid at the file line of a syntax error", () => {
    const [diagnostic] = parse(skillText("name: demo\ndescription: a: b")).diagnostics;
    expect(diagnostic?.code).toBe("yaml-invalid");
    expect(diagnostic?.line).toBe(3);
    expect(diagnostic?.message).toContain(`${file}:3`);
  });

  it("reports tab indentation and unclosed quotes as yaml-invalid without a frontmatter", () => {
    for (const yaml of ["name: demo\ndescription:\n\t- x", 'name: "demo\ndescription: x']) {
      const result = parse(skillText(yaml));
      expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["yaml-invalid"]);
      expect(result.frontmatter).toBeUndefined();
    }
  });

  it.each([
    ["a flow sequence", "allowed-tools: [Read, Write]", "flow sequence"],
    ["a flow mapping", "metadata: {team: infra}", "flow mapping"],
    ["an anchor and alias", "license: &l MIT\ncompatibility: *l", "anchor"],
    ["a tag", "license: !!str MIT", "tag"],
    ["a duplicate key", "license: MIT\nlicense: Apache-2.0", "duplicate key 'license'"],
  ])("reports %s as yaml-invalid but still returns the frontmatter for lenient loading", (_label, extra, words) => {
    const result = parse(skillText(`${demo}\n${extra}`));
    expect(result.diagnostics[0]?.code).toBe("yaml-invalid");
    expect(result.diagnostics[0]?.message).toContain(words);
    expect(result.frontmatter?.name).toBe("demo");
  });

  it("stops the field checks after a strict-YAML violation, as the reference stops at its parse error", () => {
    expect(errorCodes(skillText("name: Other_Name\ndescription: x\nmcp: [rube]"))).toEqual(["yaml-invalid"]);
  });

  it("refuses a billion-laughs YAML bomb with yaml-alias-limit instead of expanding it", () => {
    const result = parse(skillText(yamlBomb(10)));
    expect(result.frontmatter).toBeUndefined();
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toContain("yaml-alias-limit");
  });

  it("refuses 100,000 nested brackets with yaml-too-deep before the YAML parser sees them", () => {
    const result = parse(skillText(`${demo}\nx: ${"[".repeat(100_000)}${"]".repeat(100_000)}`));
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["yaml-too-deep"]);
  });

  it("parses a block mapping nested 200 deep", () => {
    const nested = Array.from({ length: 200 }, (_, level) => `${" ".repeat(level + 2)}k${level}:`).join("\n");
    expect(parse(skillText(`${demo}\nmetadata:\n${nested} leaf`)).frontmatter?.name).toBe("demo");
  });

  it("turns a block mapping nested 1,500 deep into a diagnostic or a value, never a thrown stack overflow", () => {
    const nested = Array.from({ length: 1500 }, (_, level) => `${" ".repeat(level + 2)}k${level}:`).join("\n");
    const result = parse(skillText(`${demo}\nmetadata:\n${nested} leaf`));
    const codes = result.diagnostics.map((diagnostic) => diagnostic.code);
    expect(result.frontmatter?.name === "demo" || codes.includes("yaml-invalid")).toBe(true);
  });

  it("keeps a __proto__ key as an own field without polluting prototypes", () => {
    const result = parse(skillText(`${demo}\n__proto__:\n  polluted: "yes"`));
    expect(Object.keys(result.frontmatter ?? {})).toContain("__proto__");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("parseSkillMd: field checks and warnings", () => {
  it("skips the name/folder check when no folder name is given (skills defined in code)", () => {
    expect(parseSkillMd(skillText("name: anything\ndescription: x"), { file }).diagnostics).toEqual([]);
    expect(codes(skillText("name: anything\ndescription: x"), "demo")).toEqual(["name-dir-mismatch"]);
  });

  it("lists errors before warnings", () => {
    const result = parse(skillText("name: demo\ndescription: x\ncompatibility: ''\nextra: 1", ""));
    expect(result.diagnostics.map((diagnostic) => diagnostic.severity)).toEqual(["error", "warning", "warning"]);
  });

  it("warns when the body passes 500 lines but not at exactly 500", () => {
    const body = (lines: number) => Array.from({ length: lines }, (_, index) => `l${index}`).join("\n");
    expect(codes(skillText(demo, body(500)))).toEqual([]);
    expect(codes(skillText(demo, body(501)))).toEqual(["body-too-long"]);
  });
});
