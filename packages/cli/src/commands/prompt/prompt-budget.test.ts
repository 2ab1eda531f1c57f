// `skillgraph prompt` says what its help says: no budget unless --budget is given, and --json reports the level the
// list was rendered at (with --chat, the level of chat's own budget).
import { describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../../../../../test/support/skill-tree.js";
import { captureIO } from "../../__fixtures__/capture-io.js";
import { runCli } from "../../run-cli.js";

/** 60 skills with long descriptions: about 19 000 characters in full, over chat's 8 000-character budget. */
function manySkills(): string {
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i++)
    files[`s${i}/SKILL.md`] = skillMd(
      `s${i}`,
      `Skill number ${i} does a long list of very specific things. `.repeat(4),
    );
  return writeTree(files);
}

describe("skillgraph prompt budgets", () => {
  it("prints every description in full without --budget", async () => {
    const io = captureIO(manySkills());
    expect(await runCli(["prompt", "--json", "--skills", "."], io)).toBe(0);
    const printed = JSON.parse(io.out()) as { prompt: string; level: string; chars: number };
    expect(printed.level).toBe("full");
    expect(printed.chars).toBeGreaterThan(8000);
    expect(printed.prompt).toContain(`Skill number 59 does a long list of very specific things. `.repeat(4).trim());
    expect(io.err()).not.toContain("budget");
  });

  it("--chat --json reports the level chat's budget rendered the list at", async () => {
    const io = captureIO(manySkills());
    expect(await runCli(["prompt", "--chat", "--json", "--skills", "."], io)).toBe(0);
    const printed = JSON.parse(io.out()) as { prompt: string; level: string };
    expect(printed.level).not.toBe("full");
    expect(printed.prompt).not.toContain(`Skill number 59 does a long list of very specific things. `.repeat(4).trim());
    const small = captureIO(writeTree({ "a/SKILL.md": skillMd("a", "Does a.") }));
    expect(await runCli(["prompt", "--chat", "--json", "--skills", "."], small)).toBe(0);
    expect((JSON.parse(small.out()) as { level: string }).level).toBe("full");
  });
});
