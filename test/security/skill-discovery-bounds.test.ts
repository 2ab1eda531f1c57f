// Attacks on skill discovery: a skills folder (a cloned repository, a shared drive) holds a symlink to `/`, into `/proc`,
// or simply too much; a configuration names `/proc` as the skills folder. Loading must finish, bounded, and say why it
// left things out.
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../support/skill-tree.js";

const codes = (diagnostics: Array<{ code: string }>) => diagnostics.map((diagnostic) => diagnostic.code);

describe("attack: symlinks that make discovery endless", () => {
  it("a link to / is not followed (a cycle above the root), so it loads no foreign skills and sets no watches", async () => {
    const root = writeTree({ "mine/SKILL.md": skillMd("mine", "Mine.") }, "skillgraph-link-root-");
    symlinkSync("/", join(root, "everything"));
    const source = skillsFromDirectory(root);
    const registry = await createSkillRegistry({ sources: [source], snapshot: false });
    expect(registry.list().map((skill) => skill.name)).toEqual(["mine"]);
    expect(codes(registry.diagnostics())).toContain("source-cycle");
    expect(source.watchRoots?.()).toHaveLength(2); // the root and mine/
  }, 60_000);

  it("a link into /proc is skipped, not walked", async () => {
    const root = writeTree({ "mine/SKILL.md": skillMd("mine", "Mine.") }, "skillgraph-link-proc-");
    symlinkSync("/proc/self", join(root, "proc"));
    symlinkSync("/sys/kernel", join(root, "sys"));
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: false });
    expect(registry.list().map((skill) => skill.name)).toEqual(["mine"]);
    expect(codes(registry.diagnostics()).filter((code) => code === "source-special-folder")).toHaveLength(2);
  }, 60_000);

  it("/proc, /sys or /dev as the skills folder itself (SKILLGRAPH_SKILLS=/proc, an agent file) loads nothing, at once", async () => {
    for (const folder of ["/proc", "/proc/self/root/proc", "/sys", "/dev"]) {
      const registry = await createSkillRegistry({ sources: [skillsFromDirectory(folder)], snapshot: false });
      expect(registry.list()).toEqual([]);
      expect(codes(registry.diagnostics())).toEqual(["source-special-folder"]);
    }
  }, 60_000);
});

describe("attack: a tree with too much in it", () => {
  function wideTree(skills: number): string {
    const files: Record<string, string> = {};
    for (let i = 0; i < skills; i++) files[`s${i}/SKILL.md`] = skillMd(`s${i}`, `Skill ${i}.`);
    return writeTree(files, "skillgraph-wide-");
  }

  it("stops at maxSkills and says so", async () => {
    const root = wideTree(30);
    const registry = await createSkillRegistry({
      sources: [skillsFromDirectory(root, { maxSkills: 10 })],
      snapshot: false,
    });
    expect(registry.list()).toHaveLength(10);
    expect(registry.diagnostics()).toEqual([
      expect.objectContaining({ code: "source-limit", message: expect.stringContaining("more than 10 skills") }),
    ]);
  });

  it("stops at maxFolders (what a watcher would watch) and says so", async () => {
    const root = wideTree(30);
    const source = skillsFromDirectory(root, { maxFolders: 5 });
    const registry = await createSkillRegistry({ sources: [source], snapshot: false });
    expect(registry.list().length).toBeLessThanOrEqual(4);
    expect(source.watchRoots?.().length).toBeLessThanOrEqual(5);
    expect(codes(registry.diagnostics())).toEqual(["source-limit"]);
  });

  it("follows at most maxLinks symlinked folders", async () => {
    const outside = wideTree(6);
    const root = writeTree({ "mine/SKILL.md": skillMd("mine", "Mine.") }, "skillgraph-links-");
    mkdirSync(join(root, "linked"));
    for (let i = 0; i < 6; i++) symlinkSync(join(outside, `s${i}`), join(root, "linked", `l${i}`));
    const registry = await createSkillRegistry({
      sources: [skillsFromDirectory(root, { maxLinks: 2 })],
      snapshot: false,
    });
    expect(registry.list()).toHaveLength(3);
    expect(registry.diagnostics()).toEqual([
      expect.objectContaining({ code: "source-limit", message: expect.stringContaining("symlinked folders followed") }),
    ]);
  });

  it("refuses a limit that is not a count", () => {
    expect(() => skillsFromDirectory("/tmp", { maxSkills: Number.NaN })).toThrow(/maxSkills'?: must be a non-negative/);
    expect(() => skillsFromDirectory("/tmp", { maxLinks: Infinity })).toThrow(/maxLinks/);
  });
});
