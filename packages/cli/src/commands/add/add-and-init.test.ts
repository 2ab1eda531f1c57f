import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../../../../../test/support/skill-tree.js";
import { captureIO } from "../../__fixtures__/capture-io.js";
import { runCli } from "../../run-cli.js";

describe("skillgraph init", () => {
  it("scaffolds a skill that validate passes, and never overwrites", async () => {
    const root = writeTree({});
    const io = captureIO(root);
    expect(await runCli(["init", "csv-cleaner"], io)).toBe(0);
    const dir = join(root, ".agents/skills/csv-cleaner");
    expect(existsSync(join(dir, "scripts"))).toBe(true);
    expect(existsSync(join(dir, "references"))).toBe(true);
    const check = captureIO(root);
    expect(await runCli(["validate", dir], check)).toBe(0);
    expect(check.out()).toContain("1 valid, 0 invalid");
    // The placeholder description is a warning: --strict fails until it is edited.
    const strict = captureIO(root);
    expect(await runCli(["validate", "--strict", dir], strict)).toBe(1);
    expect(strict.out()).toContain("warning: description-placeholder");
    const again = captureIO(root);
    expect(await runCli(["init", "csv-cleaner"], again)).toBe(1);
    expect(again.err()).toBe(`error: ${dir} already exists; choose another NAME or --dir\n`);
  });

  it("takes --dir and --description; refuses names the spec refuses", async () => {
    const root = writeTree({});
    expect(
      await runCli(
        ["init", "notes", "--dir", "skills", "--description", "Write notes: with a colon."],
        captureIO(root),
      ),
    ).toBe(0);
    expect(readFileSync(join(root, "skills/notes/SKILL.md"), "utf8")).toContain(
      'description: "Write notes: with a colon."',
    );
    expect(await runCli(["validate", "--strict", join(root, "skills/notes")], captureIO(root))).toBe(0);
    const json = captureIO(root);
    expect(await runCli(["init", "json-made", "--json", "--description", "Made for scripts."], json)).toBe(0);
    expect(JSON.parse(json.out())).toEqual({
      name: "json-made",
      path: join(root, ".agents/skills/json-made"),
      skillFile: join(root, ".agents/skills/json-made/SKILL.md"),
      files: ["SKILL.md", "references/README.md", "scripts/"],
      description: "Made for scripts.",
      placeholder: false,
    });
    for (const bad of ["Bad", "a--b", "a-", "x".repeat(65), "a/b", "../up"]) {
      const io = captureIO(root);
      expect(await runCli(["init", bad], io), bad).toBe(2);
      expect(io.err()).toContain("is not a valid skill name");
    }
  });
});

describe("skillgraph add", () => {
  it("copies a valid skill into .agents/skills, refuses to overwrite without --force, never follows symlinks", async () => {
    const source = writeTree({
      "pdf/SKILL.md": skillMd("pdf", "Read PDFs."),
      "pdf/scripts/run.sh": "#!/bin/sh\necho hi\n",
    });
    writeFileSync(join(source, "secret.txt"), "outside the skill\n");
    symlinkSync(join(source, "secret.txt"), join(source, "pdf/leak.txt"));
    symlinkSync("/etc", join(source, "pdf/etc"));
    const project = writeTree({});
    const io = captureIO(project);
    expect(await runCli(["add", join(source, "pdf")], io)).toBe(0);
    const target = join(project, ".agents/skills/pdf");
    expect(io.out()).toBe(`added pdf -> ${target} (2 files)\n`);
    expect(io.err()).toContain("warning: pdf: skipped leak.txt (symlink, not followed)");
    expect(existsSync(join(target, "leak.txt"))).toBe(false);
    expect(existsSync(join(target, "etc"))).toBe(false);
    expect(readFileSync(join(target, "scripts/run.sh"), "utf8")).toContain("echo hi");

    writeFileSync(join(source, "pdf/SKILL.md"), skillMd("pdf", "Read PDFs, version 2."));
    const refused = captureIO(project);
    expect(await runCli(["add", join(source, "pdf")], refused)).toBe(1);
    expect(refused.err()).toBe(`error: ${target} already exists (pass --force to replace it)\n`);
    expect(readFileSync(join(target, "SKILL.md"), "utf8")).toContain("Read PDFs.");
    expect(await runCli(["add", join(source, "pdf"), "--force"], captureIO(project))).toBe(0);
    expect(readFileSync(join(target, "SKILL.md"), "utf8")).toContain("version 2");
  });

  it("validates first: an invalid skill is refused and nothing is copied", async () => {
    const source = writeTree({ "bad/SKILL.md": skillMd("not-bad", "Name does not match the folder.") });
    const project = writeTree({});
    const io = captureIO(project);
    expect(await runCli(["add", join(source, "bad")], io)).toBe(1);
    expect(io.err()).toMatch(/^error: .*bad is not a valid skill: /);
    expect(existsSync(join(project, ".agents/skills"))).toBe(false);
  });

  it("refuses a remote source (a URL, github:user/repo, a registry skill) saying to download it first", async () => {
    const root = writeTree({});
    for (const source of ["https://example.com/skills/calc/SKILL.md", "github:user/repo", "skill/calculator:1.0.0"]) {
      const io = captureIO(root);
      expect(await runCli(["add", source], io)).toBe(1);
      expect(io.err()).toContain(`'${source}' is a remote source: skillgraph add fetches nothing from the network`);
      expect(io.err()).not.toContain("npm package");
    }
  });

  it("adds every skill of a folder, and the skills of an installed npm package", async () => {
    const project = writeTree({
      "vendor/a/SKILL.md": skillMd("a", "A."),
      "vendor/b/SKILL.md": skillMd("b", "B."),
      "node_modules/@acme/skills/package.json": JSON.stringify({ name: "@acme/skills", version: "1.0.0" }),
      "node_modules/@acme/skills/skills/c/SKILL.md": skillMd("c", "C."),
    });
    expect(await runCli(["add", "./vendor", "--dir", "skills"], captureIO(project))).toBe(0);
    expect(existsSync(join(project, "skills/a/SKILL.md")) && existsSync(join(project, "skills/b/SKILL.md"))).toBe(true);
    const io = captureIO(project);
    expect(await runCli(["add", "@acme/skills"], io)).toBe(0);
    expect(existsSync(join(project, ".agents/skills/c/SKILL.md"))).toBe(true);
    const missing = captureIO(project);
    expect(await runCli(["add", "@acme/not-installed"], missing)).toBe(1);
    expect(missing.err()).toMatch(/^error: .*not-installed/);
    mkdirSync(join(project, "empty"));
    const empty = captureIO(project);
    expect(await runCli(["add", "./empty"], empty)).toBe(1);
    expect(empty.err()).toContain("no skill found in");
  });
});
