// `skillgraph prompt`'s flags come from one table: the usage line and the help list every flag, and the table's schema
// refuses bad values and combinations with a usage error (exit 2) before any skill is read.
import { describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../../../../../test/support/skill-tree.js";
import { captureIO } from "../../__fixtures__/capture-io.js";
import { runCli } from "../../run-cli.js";
import { help, usage } from "./index.js";

describe("skillgraph prompt flags", () => {
  it("shows every flag in the usage line and the help", () => {
    const flags = help.options.map((option) => option.flags);
    for (const flag of ["--chat", "--system", "--format", "--budget", "--skills", "--json", "--verbose"]) {
      expect(usage).toContain(flag);
      expect(flags.some((written) => written.startsWith(flag))).toBe(true);
    }
  });

  it.each([
    [["--format", "html"], "--format must be xml or markdown, not 'html'"],
    [["--budget", "0"], "--budget must be a positive number of characters, not '0'"],
    [["--budget", "1.5"], "--budget must be a positive number of characters, not '1.5'"],
    [["--system", "be brief"], "--system needs --chat"],
    [["--chat", "some/skill"], "--chat reads --skills folders, not skill PATHs"],
  ])("refuses %j", async (args, message) => {
    const io = captureIO(writeTree({}));
    expect(await runCli(["prompt", ...args], io)).toBe(2);
    expect(io.err()).toContain(message);
    expect(io.out()).toBe("");
  });

  it("renders with the checked values: markdown, and a budget that cuts the list", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`s${i}/SKILL.md`] = skillMd(`s${i}`, `Skill ${i} does things. `.repeat(10));
    const dir = writeTree(files);
    const markdown = captureIO(dir);
    expect(await runCli(["prompt", "--format", "markdown", "--skills", "."], markdown)).toBe(0);
    expect(markdown.out()).not.toContain("<available_skills>");
    expect(markdown.out()).toContain("s19");
    const budgeted = captureIO(dir);
    expect(await runCli(["prompt", "--budget", "600", "--json", "--skills", "."], budgeted)).toBe(0);
    const printed = JSON.parse(budgeted.out()) as { level: string; chars: number };
    expect(printed.level).not.toBe("full");
    expect(printed.chars).toBeLessThanOrEqual(600);
  });
});
