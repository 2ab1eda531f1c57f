import { describe, expect, it } from "vitest";
import { writeTree } from "../../../../test/support/skill-tree.js";
import { join } from "node:path";
import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import { validateSkill } from "./validate-skill.js";

const TAMA = `---
name: fetcher
description: Fetch pages.
tools: [http_get, read_file]
tama:
  depends:
    bins: [curl]
---
Fetch it.
`;
const CLAUDE = `---
name: reviewer
description: Review code.
model: sonnet
argument-hint: "[file]"
---
Review.
`;

describe("validateSkill: dialects", () => {
  it("keeps the reference verdict by default: tama keys and flow lists are errors", async () => {
    const dir = writeTree({ "fetcher/SKILL.md": TAMA });
    const result = await validateSkill(join(dir, "fetcher"));
    expect(result.success).toBe(false);
    expect(result.issues.map((issue) => issue.code)).toContain("yaml-invalid");
  });

  it("accepts tama's keys and flow-style lists under dialect tama, each with a dialect-field note", async () => {
    const dir = writeTree({ "fetcher/SKILL.md": TAMA });
    const result = await validateSkill(join(dir, "fetcher"), { dialect: "tama" });
    expect(result.success).toBe(true);
    expect(result.issues.every((issue) => issue.severity === "warning")).toBe(true);
    const notes = result.issues.filter((issue) => issue.code === "dialect-field");
    expect(notes.map((issue) => issue.field ?? "flow")).toEqual(expect.arrayContaining(["tools", "tama", "flow"]));
    expect(notes.find((issue) => issue.field === undefined)!.message).toContain("flow-style YAML");
    expect(result.skill?.allowedTools).toEqual(["http_get", "read_file"]);
  });

  it("does not accept one runtime's keys under another's dialect, and accepts all under any", async () => {
    const dir = writeTree({ "reviewer/SKILL.md": CLAUDE, "fetcher/SKILL.md": TAMA });
    const asTama = await validateSkill(join(dir, "reviewer"), { dialect: "tama" });
    expect(asTama.success).toBe(false);
    expect(asTama.issues.filter((issue) => issue.code === "unknown-field").map((issue) => issue.field)).toEqual([
      "argument-hint",
      "model",
    ]);
    const asClaude = await validateSkill(join(dir, "reviewer"), { dialect: "claude" });
    expect(asClaude.success).toBe(true);
    expect(asClaude.issues.find((issue) => issue.field === "model")!.message).toContain("Claude Code's frontmatter");
    expect((await validateSkill(join(dir, "fetcher"), { dialect: "any" })).success).toBe(true);
    expect((await validateSkill(join(dir, "reviewer"), { dialect: "any" })).success).toBe(true);
  });

  it("still refuses strict-YAML errors other than flow lists (an anchor), and an unknown dialect name", async () => {
    const dir = writeTree({
      "a/SKILL.md": "---\nname: a\ndescription: &d Anchored.\n---\nx\n",
    });
    expect((await validateSkill(join(dir, "a"), { dialect: "any" })).success).toBe(false);
    await expect(validateSkill(join(dir, "a"), { dialect: "yaml11" as never })).rejects.toSatisfy((error) =>
      InvalidOptionsError.isInstance(error),
    );
  });
});
