import { describe, expect, it } from "vitest";
import { parseFrontmatterYaml } from "./parse-frontmatter-yaml.js";

// Expected values below were observed by running the reference's strictyaml (1.6.1) on the same text.
const accepted = (yaml: string) => {
  const result = parseFrontmatterYaml(yaml);
  return result.fatal === undefined && result.strictViolations.length === 0;
};

describe("parseFrontmatterYaml agrees with strictyaml", () => {
  it.each([
    ["a tab inside a plain value", "name: tab\there\n"],
    ["a tab after the colon", "name:\tvalue\n"],
    ["a tab before a comment", "a: x\t# note\n"],
    ["a trailing tab", "a:\n  - x\t\n"],
    ["sibling mappings indented differently", "a:\n b: 1\nc:\n    d: 2\n"],
    ["a merge key", "a: 1\n<<: 2\n"],
  ])("refuses %s", (_label, yaml) => {
    const result = parseFrontmatterYaml(yaml);
    expect(result.fatal).toBeUndefined();
    expect(result.strictViolations.map((violation) => violation.code)).toContain("yaml-invalid");
    expect(result.data).toBeDefined();
  });

  it.each([
    [
      "tabs in quoted and block scalars and comments",
      'a: "x\ty"\nb: |\n  x\ty\nc: x # note\tmore\n',
      { a: "x\ty", b: "x\ty\n", c: "x" },
    ],
    ["an explicit key without value, read as an empty string", "k:\n  - ? x\n", { k: [{ x: "" }] }],
    ["an empty folded block", "a: >\n", { a: "" }],
    ["sibling mappings indented alike", "a:\n  b: 1\nc:\n  d: 2\n", { a: { b: "1" }, c: { d: "2" } }],
    ["quoted keys and escapes", "'q k': 'it''s'\n\"dq\": \"esc\\tape\"\n", { "q k": "it's", dq: "esc\tape" }],
  ])("accepts %s with the same data", (_label, yaml, data) => {
    expect(accepted(yaml)).toBe(true);
    expect(parseFrontmatterYaml(yaml).data).toEqual(data);
  });

  it("positions each violation at its 1-based line and column in the YAML text (an anchor at the value it names)", () => {
    const result = parseFrontmatterYaml("name: x\ntools: [a]\nlicense: &l MIT\n");
    expect(result.strictViolations.map(({ line, column }) => [line, column])).toEqual([
      [2, 8],
      [3, 13],
    ]);
  });
});
