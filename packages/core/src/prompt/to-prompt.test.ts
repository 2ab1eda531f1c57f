import { describe, expect, it } from "vitest";
import { escapeHtml } from "./escape-html.js";
import { toPrompt } from "./to-prompt.js";
import { xmlSkillEntry } from "./xml-layout.js";

describe("toPrompt", () => {
  it("prints the reference layout: every tag on its own line, joined by \\n, no trailing newline", () => {
    const text = toPrompt([
      { name: "pdf", description: "Read PDFs.", location: "/s/pdf/SKILL.md" },
      { name: "csv", description: "Edit CSV.", location: "/s/csv/skill.md" },
    ]);
    expect(text).toBe(
      "<available_skills>\n<skill>\n<name>\npdf\n</name>\n<description>\nRead PDFs.\n</description>\n<location>\n/s/pdf/SKILL.md\n</location>\n</skill>\n" +
        "<skill>\n<name>\ncsv\n</name>\n<description>\nEdit CSV.\n</description>\n<location>\n/s/csv/skill.md\n</location>\n</skill>\n</available_skills>",
    );
  });

  it("prints only the opening and closing tag for an empty list", () => {
    expect(toPrompt([])).toBe("<available_skills>\n</available_skills>");
  });

  it("escapes & < > \" ' in name and description like html.escape(quote=True), and leaves the location raw", () => {
    const text = toPrompt([
      { name: `a&b<c>"d'`, description: `Use when "x" & 'y' <z>`, location: `/tmp/a&b <x>/SKILL.md` },
    ]);
    expect(text).toContain("\na&amp;b&lt;c&gt;&quot;d&#x27;\n");
    expect(text).toContain("\nUse when &quot;x&quot; &amp; &#x27;y&#x27; &lt;z&gt;\n");
    expect(text).toContain("\n/tmp/a&b <x>/SKILL.md\n");
  });

  it("escapes an already-escaped entity again, as Python html.escape does", () => {
    expect(toPrompt([{ name: "n", description: "&amp; stays literal", location: "/l" }])).toContain(
      "\n&amp;amp; stays literal\n",
    );
  });

  it("keeps multi-line descriptions and non-ASCII text as they are, in argument order", () => {
    const text = toPrompt([
      { name: "zeta", description: "Line one.\nLine two: ünïcödé 日本語 😀", location: "/z" },
      { name: "alpha", description: "A", location: "/a" },
    ]);
    expect(text.indexOf("zeta")).toBeLessThan(text.indexOf("alpha"));
    expect(text).toContain("<description>\nLine one.\nLine two: ünïcödé 日本語 😀\n</description>");
  });
});

describe("xmlSkillEntry (the one <skill> entry renderer, for toPrompt and the xml layout)", () => {
  const entry = { name: "pdf", description: "Read PDFs", location: `/s/a"b<c>/SKILL.md` };

  it("in reference mode is exactly toPrompt's entry: location raw, and present even when empty", () => {
    expect(toPrompt([entry])).toBe(
      `<available_skills>\n${xmlSkillEntry(entry, { reference: true })}\n</available_skills>`,
    );
    expect(xmlSkillEntry({ ...entry, location: "" }, { reference: true })).toContain("<location>\n\n</location>");
  });

  it("in the layout escapes the location (it could close the tag) and leaves out an empty one", () => {
    expect(xmlSkillEntry(entry)).toContain("<location>\n/s/a&quot;b&lt;c&gt;/SKILL.md\n</location>");
    expect(xmlSkillEntry({ ...entry, location: "" })).not.toContain("<location>");
  });
});

describe("escapeHtml", () => {
  it("maps exactly the five characters html.escape(quote=True) maps and nothing else", () => {
    const all = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join("");
    const escaped = escapeHtml(all);
    const expected = all
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&#x27;");
    expect(escaped).toBe(expected);
    expect(escapeHtml("é/`=")).toBe("é/`=");
  });
});
