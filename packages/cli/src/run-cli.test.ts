import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CORPUS_AVAILABLE, CORPUS_DIR } from "../../../test/support/shared-paths.js";
import { captureIO } from "./__fixtures__/capture-io.js";
import { runCli } from "./run-cli.js";
import { skillMd, writeTree } from "../../../test/support/skill-tree.js";

const referenceResults = (
  CORPUS_AVAILABLE ? JSON.parse(readFileSync(join(CORPUS_DIR, "skills-ref-results.json"), "utf8")) : {}
) as Record<string, { valid: boolean; rules?: string[]; properties?: { name: string; description: string } }>;

describe("skillgraph validate", () => {
  it.skipIf(!CORPUS_AVAILABLE)(
    "exits 0 for valid folders and 1 when one is invalid, with the reference's verdict in --json",
    async () => {
      const valid = "skills/anthropics__skills/frontend-design";
      const invalid = "skills/alibaba__spring-ai-alibaba/sales_analytics";
      expect(referenceResults[valid]?.valid).toBe(true);
      expect(referenceResults[invalid]?.valid).toBe(false);

      const ok = captureIO(CORPUS_DIR);
      expect(await runCli(["validate", "--json", valid], ok)).toBe(0);
      const bad = captureIO(CORPUS_DIR);
      expect(await runCli(["validate", "--json", valid, invalid], bad)).toBe(1);
      const parsed = JSON.parse(bad.out()) as {
        results: Array<{
          path: string;
          name: string;
          valid: boolean;
          diagnostics: Array<{ code: string; severity: string; message: string }>;
        }>;
      };
      expect(parsed.results.map((r) => r.valid)).toEqual([true, false]);
      expect(parsed.results[1]!.name).toBe("sales_analytics");
      expect(parsed.results[1]!.diagnostics.filter((d) => d.severity === "error").map((d) => d.code)).toEqual(
        referenceResults[invalid]!.rules,
      );
      expect(Object.keys(parsed.results[1]!.diagnostics[0]!).sort()).toEqual(["code", "message", "severity"]);
    },
  );

  it("validates every skill below a folder with --all, nested ones included", async () => {
    const root = writeTree({
      "a/SKILL.md": skillMd("a", "A."),
      "group/b/SKILL.md": skillMd("b", "B."),
      "group/b/c/SKILL.md": skillMd("wrong-name", "C."),
    });
    const io = captureIO(root);
    expect(await runCli(["validate", "--json", "--all", "."], io)).toBe(1);
    const results = (
      JSON.parse(io.out()) as { results: Array<{ name: string; valid: boolean; diagnostics: Array<{ code: string }> }> }
    ).results;
    expect(results.map((r) => [r.name, r.valid])).toEqual([
      ["a", true],
      ["b", true],
      ["wrong-name", false],
    ]);
    expect(results[2]!.diagnostics.map((d) => d.code)).toEqual(["name-dir-mismatch"]);
  });

  it("exits 2 on a usage error", async () => {
    const io = captureIO("/");
    expect(await runCli(["validate"], io)).toBe(2);
    expect(io.err()).toContain("Usage: skillgraph validate");
    expect(await runCli(["validate", "--bogus", "x"], captureIO("/"))).toBe(2);
    expect(await runCli(["no-such-command"], captureIO("/"))).toBe(2);
  });

  it.each(["list", "search", "show", "prompt", "index", "chat"])(
    "%s: --source is a usage error that suggests --skills",
    async (command) => {
      const io = captureIO("/");
      expect(await runCli([command, "--source", "skills"], io)).toBe(2);
      expect(io.err()).toContain("'--source'");
      expect(io.err()).toContain("(did you mean --skills?)");
    },
  );
});

describe("skillgraph prompt", () => {
  it.skipIf(!CORPUS_AVAILABLE)(
    "prints exactly the reference's to-prompt output for folders, in argument order",
    async () => {
      const dirs = [
        "skills/openai__skills/linear",
        "skills/anthropics__skills/frontend-design",
        "skills/obra__superpowers/brainstorming",
      ];
      const io = captureIO(CORPUS_DIR);
      expect(await runCli(["prompt", "--format", "xml", ...dirs], io)).toBe(0);
      // Built independently from the reference's recorded read_properties output.
      const escape = (text: string) =>
        text
          .replace(/&/g, "&amp;")
          .replace(/</g, "&lt;")
          .replace(/>/g, "&gt;")
          .replace(/"/g, "&quot;")
          .replace(/'/g, "&#x27;");
      const lines = ["<available_skills>"];
      for (const dir of dirs) {
        const properties = referenceResults[dir]!.properties!;
        lines.push(
          "<skill>",
          "<name>",
          escape(properties.name),
          "</name>",
          "<description>",
          escape(properties.description),
          "</description>",
          "<location>",
          join(CORPUS_DIR, dir, "SKILL.md"),
          "</location>",
          "</skill>",
        );
      }
      lines.push("</available_skills>");
      expect(io.out()).toBe(`${lines.join("\n")}\n`);
    },
  );

  it("degrades under a budget and says so on stderr", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++)
      files[`s${i}/SKILL.md`] = skillMd(
        `s${i}`,
        `Skill number ${i} does a long list of very specific things `.repeat(4),
      );
    const root = writeTree(files);
    const io = captureIO(root);
    expect(await runCli(["prompt", "--budget", "1500", "--skills", "."], io)).toBe(0);
    expect(io.out().length).toBeLessThanOrEqual(1501);
    expect(io.err()).toMatch(/budget: rendered at level '(short-descriptions|names-only|count-only)'/);
  });
});

describe("skillgraph list, show and search", () => {
  const root = writeTree({
    "skills/release-notes/SKILL.md": skillMd("release-notes", "Write release notes and changelogs from git history."),
    "skills/release-notes/references/format.md": "# Format\n",
    "skills/sql-review/SKILL.md": skillMd("sql-review", "Review SQL queries for correctness and performance."),
  });

  it("lists the default project skills folder", async () => {
    const io = captureIO(root);
    expect(await runCli(["list", "--json"], io)).toBe(0);
    const payload = JSON.parse(io.out()) as { skills: Array<{ name: string; layer: string }> };
    expect(payload.skills.map((s) => [s.name, s.layer])).toEqual([
      ["release-notes", "project"],
      ["sql-review", "project"],
    ]);
  });

  it("shows one skill with its files and body", async () => {
    const io = captureIO(root);
    expect(await runCli(["show", "release-notes"], io)).toBe(0);
    expect(io.out()).toContain("references/format.md");
    expect(io.out()).toContain("Instructions for release-notes.");
    const missing = captureIO(root);
    expect(await runCli(["show", "release-note"], missing)).toBe(1);
    expect(missing.err()).toContain("release-notes");
  });

  it("searches with --json in the documented shape, best first", async () => {
    const io = captureIO(root);
    expect(
      await runCli(["search", "summarise what changed since the last version", "--json", "--limit", "2"], io),
    ).toBe(0);
    const { results, threshold, margin, confident } = JSON.parse(io.out()) as {
      threshold: number;
      margin: number;
      confident: boolean;
      results: Array<{ name: string; score: number; confident: boolean; path: string; skillFile: string }>;
    };
    expect(results[0]!.name).toBe("release-notes");
    expect(Object.keys(results[0]!).sort()).toEqual(["confident", "name", "path", "score", "skillFile"]);
    expect(results[0]!.skillFile).toBe(join(results[0]!.path, "SKILL.md"));
    expect(threshold).toBeGreaterThan(0);
    expect(margin).toBeGreaterThan(0);
    // Only the first result can be confident; `threshold` is the calibrated probability it needs (0..1).
    expect(confident).toBe(results[0]!.confident);
    expect(results.slice(1).every((result) => !result.confident)).toBe(true);
    expect(threshold).toBeLessThanOrEqual(1);
    expect(results.length).toBeLessThanOrEqual(2);
  });

  it("searches several phrasings of one need with --also, fused as the search_skills tool does", async () => {
    const search = async (args: string[]) => {
      const io = captureIO(root);
      expect(await runCli(["search", ...args, "--json"], io)).toBe(0);
      return JSON.parse(io.out()) as { confident: boolean; results: Array<{ name: string; score: number }> };
    };
    const alone = await search(["tidy up what we shipped"]);
    expect(alone.confident).toBe(false);
    const fused = await search([
      "tidy up what we shipped",
      "--also",
      "write release notes from git history",
      "--also",
      "changelog from git history",
    ]);
    expect(fused.results[0]!.name).toBe("release-notes");
    expect(fused.confident).toBe(true);
    // Each result keeps its best score over the phrasings: the rewrites' score, not the request's.
    const rewrite = await search(["write release notes from git history"]);
    expect(fused.results[0]!.score).toBeGreaterThanOrEqual(rewrite.results[0]!.score);
    const io = captureIO(root);
    expect(await runCli(["search", "--also", "release notes"], io)).toBe(2);
    expect(io.err()).toContain("give a query");
  });
});
