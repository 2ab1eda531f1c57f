import { describe, expect, it } from "vitest";
import { splitFrontmatter } from "./split-frontmatter.js";

describe("splitFrontmatter", () => {
  it("splits at the first '---' line after the opener and reports where YAML and body start", () => {
    expect(splitFrontmatter("---\na: 1\nb: 2\n---\nbody\n---\nmore")).toEqual({
      ok: true,
      yaml: "a: 1\nb: 2\n",
      body: "body\n---\nmore",
      yamlStartLine: 2,
      bodyStartLine: 5,
    });
  });

  it("accepts a closer on the last line without a newline, giving an empty body", () => {
    expect(splitFrontmatter("---\na: 1\n---")).toMatchObject({ ok: true, yaml: "a: 1\n", body: "" });
  });

  it("accepts delimiter lines with trailing blanks or a comment, but not text glued to the dashes", () => {
    expect(splitFrontmatter("--- # meta\na: 1\n---  \nbody")).toMatchObject({ ok: true, body: "body" });
    expect(splitFrontmatter("---name: x\n---\n")).toEqual({ ok: false, reason: "missing" });
    expect(splitFrontmatter("----\na: 1\n---\n")).toEqual({ ok: false, reason: "missing" });
    expect(splitFrontmatter("---\na: 1\n---# Body\n")).toEqual({ ok: false, reason: "unclosed" });
  });

  it("says missing when the text does not start with '---', unclosed when no closer follows", () => {
    expect(splitFrontmatter(" ---\na: 1\n---\n")).toEqual({ ok: false, reason: "missing" });
    expect(splitFrontmatter("---")).toEqual({ ok: false, reason: "unclosed" });
    expect(splitFrontmatter("---\na: 1\n")).toEqual({ ok: false, reason: "unclosed" });
  });
});
