import { mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SkillNotFoundError } from "../errors/skill-not-found-error.js";
import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import { SkillSourceError } from "../errors/skill-source-error.js";
import { skillsFromCode } from "../sources/code-source.js";
import { conventionalSources } from "../sources/conventional-sources.js";
import { skillsFromDirectory } from "../sources/directory-source.js";
import { skillMd, writeTree } from "../../../../test/support/skill-tree.js";
import { createSkillRegistry } from "./create-skill-registry.js";

describe("createSkillRegistry", () => {
  it("finds nested skills, skips node_modules and .git, and lists them sorted by name", async () => {
    const root = writeTree({
      "b-skill/SKILL.md": skillMd("b-skill", "Second."),
      "group/a-skill/SKILL.md": skillMd("a-skill", "First."),
      "group/a-skill/inner/c-skill/SKILL.md": skillMd("c-skill", "Nested in a skill."),
      "node_modules/x-skill/SKILL.md": skillMd("x-skill", "Hidden in node_modules."),
      ".git/y-skill/SKILL.md": skillMd("y-skill", "Hidden in .git."),
      "lower/skill.md": skillMd("lower", "Lowercase file name."),
    });
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)] });
    expect(registry.list().map((skill) => skill.name)).toEqual(["a-skill", "b-skill", "c-skill", "lower"]);
    expect(registry.get("a-skill")?.dir).toBe(join(root, "group/a-skill"));
    expect(registry.has("x-skill")).toBe(false);
  });

  it("lists metadata without holding bodies and reads a body on demand", async () => {
    const root = writeTree({ "alpha/SKILL.md": skillMd("alpha", "Alpha skill.", "Step one.\nStep two.") });
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)] });
    const metadata = registry.get("alpha")!;
    expect("body" in metadata).toBe(false);
    expect(await registry.readBody("alpha")).toContain("Step two.");
  });

  it("gives explicit sources precedence over project over user, and reports what was shadowed", async () => {
    const user = writeTree({
      "shared/SKILL.md": skillMd("shared", "From user."),
      "only-user/SKILL.md": skillMd("only-user", "User only."),
    });
    const project = writeTree({ "shared/SKILL.md": skillMd("shared", "From project.") });
    const explicit = writeTree({ "shared/SKILL.md": skillMd("shared", "From explicit.") });
    const registry = await createSkillRegistry({
      sources: [
        skillsFromDirectory(explicit),
        skillsFromDirectory(user, { layer: "user" }),
        skillsFromDirectory(project, { layer: "project" }),
      ],
    });
    expect(registry.get("shared")?.description).toBe("From explicit.");
    expect(registry.get("only-user")?.origin.layer).toBe("user");
    const shadowed = registry.shadowed().filter((item) => item.name === "shared");
    expect(shadowed.map((item) => item.shadowed.origin.layer).sort()).toEqual(["project", "user"]);
    expect(shadowed.every((item) => item.winner.origin.layer === "explicit")).toBe(true);
  });

  it("reads the conventional project and user locations", async () => {
    const project = writeTree({
      ".agents/skills/p1/SKILL.md": skillMd("p1", "Project agents."),
      ".claude/skills/p2/SKILL.md": skillMd("p2", "Project claude."),
      "skills/p3/SKILL.md": skillMd("p3", "Project skills."),
    });
    const home = writeTree({
      ".codex/skills/u1/SKILL.md": skillMd("u1", "User codex."),
      ".claude/skills/p1/SKILL.md": skillMd("p1", "User copy of p1."),
    });
    const registry = await createSkillRegistry({ sources: conventionalSources({ cwd: project, home }) });
    expect(registry.list().map((skill) => [skill.name, skill.origin.layer])).toEqual([
      ["p1", "project"],
      ["p2", "project"],
      ["p3", "project"],
      ["u1", "user"],
    ]);
    expect(registry.shadowed()).toHaveLength(1);
  });

  it("reload re-reads only changed files and reports added, changed and removed skills", async () => {
    const root = writeTree({
      "one/SKILL.md": skillMd("one", "One."),
      "two/SKILL.md": skillMd("two", "Two."),
      "three/SKILL.md": skillMd("three", "Three."),
    });
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)] });
    const version = registry.version;

    const unchanged = await registry.reload();
    expect(unchanged).toMatchObject({ added: [], removed: [], changed: [], reread: 0, reused: 3, version });

    writeFileSync(join(root, "two/SKILL.md"), skillMd("two", "Two, changed."));
    utimesSync(join(root, "two/SKILL.md"), new Date(), new Date(Date.now() + 5000));
    rmSync(join(root, "three"), { recursive: true });
    mkdirSync(join(root, "four"));
    writeFileSync(join(root, "four/SKILL.md"), skillMd("four", "Four."));
    const report = await registry.reload();
    expect(report).toMatchObject({ added: ["four"], removed: ["three"], changed: ["two"], reread: 2, reused: 1 });
    expect(report.version).toBe(version + 1);
    expect(registry.get("two")?.description).toBe("Two, changed.");
  });

  it("keeps serving the old snapshot to a reader while a reload runs", async () => {
    const root = writeTree({ "one/SKILL.md": skillMd("one", "One.") });
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)] });
    const before = registry.list();
    writeFileSync(join(root, "one/SKILL.md"), skillMd("one", "One, new."));
    utimesSync(join(root, "one/SKILL.md"), new Date(), new Date(Date.now() + 5000));
    const pending = registry.reload();
    expect(registry.get("one")?.description).toBe("One.");
    expect(before[0]?.description).toBe("One.");
    await pending;
    expect(registry.get("one")?.description).toBe("One, new.");
    expect(before[0]?.description).toBe("One.");
  });

  it("loads skills defined in code, with resource files served from memory", async () => {
    const registry = await createSkillRegistry({
      sources: [
        skillsFromCode([
          {
            name: "in-code",
            description: "Defined in code.",
            body: "Do the thing.",
            files: { "references/guide.md": "# Guide" },
          },
        ]),
      ],
    });
    expect(registry.get("in-code")?.origin.kind).toBe("code");
    expect(await registry.readBody("in-code")).toBe("Do the thing.");
    expect(await registry.listFiles("in-code")).toEqual([{ path: "references/guide.md", size: 7 }]);
    expect((await registry.readFile("in-code", "references/guide.md")).content).toBe("# Guide");
    await expect(registry.readFile("in-code", "../secret")).rejects.toMatchObject({ reason: "traversal" });
    await expect(registry.readFile("in-code", "references/guide.md", { maxBytes: 3 })).rejects.toMatchObject({
      reason: "too-large",
    });
  });

  it("throws SkillNotFoundError with suggestions for an unknown name", async () => {
    const root = writeTree({ "pdf-tools/SKILL.md": skillMd("pdf-tools", "PDF.") });
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)] });
    const error = await registry.readBody("pdf-tool").catch((e: unknown) => e);
    expect(SkillNotFoundError.isInstance(error)).toBe(true);
    expect((error as SkillNotFoundError).suggestions).toEqual(["pdf-tools"]);
  });

  it("rejects with a SkillSourceError naming a missing explicit folder; optional: true keeps it silently empty", async () => {
    const error = await createSkillRegistry({ sources: [skillsFromDirectory("/nonexistent/skillgraph-test")] }).catch(
      (caught: unknown) => caught,
    );
    expect(SkillSourceError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "skills-folder-missing", path: "/nonexistent/skillgraph-test" });
    expect((error as Error).message).toContain("/nonexistent/skillgraph-test does not exist");
    const optional = await createSkillRegistry({
      sources: [skillsFromDirectory("/nonexistent/skillgraph-test", { optional: true })],
    });
    expect(optional.list()).toEqual([]);
    expect(optional.diagnostics()).toEqual([]);
  });

  it("rejects an explicit folder that is a file (unreadable), naming it", async () => {
    const root = writeTree({ "not-a-folder": "text" });
    const error = await createSkillRegistry({ sources: [skillsFromDirectory(join(root, "not-a-folder"))] }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: "skills-folder-unreadable", path: join(root, "not-a-folder") });
    expect((error as Error).message).toContain("not a folder");
  });

  it("reports an explicit folder that vanished after creation as a source-missing diagnostic on reload", async () => {
    const root = writeTree({ "one/SKILL.md": skillMd("one", "One.") });
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: false });
    rmSync(root, { recursive: true, force: true });
    await registry.reload();
    expect(registry.list()).toEqual([]);
    expect(registry.diagnostics().map((d) => [d.code, d.path])).toEqual([["source-missing", root]]);
  });

  it("follows a symlinked skill folder and survives a symlink cycle", async () => {
    const outside = writeTree({ "linked/SKILL.md": skillMd("linked", "Linked in.") });
    const root = writeTree({ "real/SKILL.md": skillMd("real", "Real.") });
    symlinkSync(join(outside, "linked"), join(root, "linked"));
    symlinkSync(root, join(root, "real/loop"));
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)] });
    expect(registry.list().map((skill) => skill.name)).toEqual(["linked", "real"]);
    expect(registry.diagnostics().some((d) => d.code === "source-cycle")).toBe(true);
  });

  it("counts a skill folder reached through two links once, at its first path, and says so", async () => {
    const outside = writeTree({ "shared-skill/SKILL.md": skillMd("shared-skill", "Linked twice.") });
    const root = writeTree({});
    symlinkSync(join(outside, "shared-skill"), join(root, "b-link"));
    symlinkSync(join(outside, "shared-skill"), join(root, "a-link"));
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)] });
    expect(registry.list().map((skill) => skill.dir)).toEqual([join(root, "a-link")]);
    expect(registry.shadowed()).toEqual([]);
    expect(registry.diagnostics().map((d) => [d.code, d.path])).toEqual([
      ["source-duplicate-link", join(root, "b-link")],
    ]);
  });

  it("rejects invalid options in the factory", async () => {
    await expect(createSkillRegistry({ sources: [], maxSkillMdBytes: -1 })).rejects.toBeInstanceOf(InvalidOptionsError);
    const root = writeTree({});
    await expect(
      createSkillRegistry({ sources: [skillsFromDirectory(root), skillsFromDirectory(root)] }),
    ).rejects.toMatchObject({ option: "sources" });
  });
});

describe("registry views", () => {
  it("filters with only / exclude / disabled without changing the registry or other views", async () => {
    const root = writeTree({
      "a/SKILL.md": skillMd("a", "A."),
      "b/SKILL.md": skillMd("b", "B."),
      "c/SKILL.md": skillMd("c", "C."),
    });
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)] });
    const onlyAB = registry.view({ only: ["a", "b"] });
    const noB = registry.view({ disabled: ["b"] });
    expect(onlyAB.list().map((s) => s.name)).toEqual(["a", "b"]);
    expect(noB.list().map((s) => s.name)).toEqual(["a", "c"]);
    expect(
      onlyAB
        .view({ exclude: ["a"] })
        .list()
        .map((s) => s.name),
    ).toEqual(["b"]);
    expect(registry.list().map((s) => s.name)).toEqual(["a", "b", "c"]);
    expect(noB.get("b")).toBeUndefined();
    await expect(noB.readBody("b")).rejects.toBeInstanceOf(SkillNotFoundError);
  });

  it("follows registry reloads", async () => {
    const root = writeTree({ "a/SKILL.md": skillMd("a", "A.") });
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)] });
    const view = registry.view({ exclude: ["hidden"] });
    mkdirSync(join(root, "b"));
    writeFileSync(join(root, "b/SKILL.md"), skillMd("b", "B."));
    await registry.reload();
    expect(view.list().map((s) => s.name)).toEqual(["a", "b"]);
  });
});

describe("conventional sources", () => {
  it("counts the home folder's skill folders once, as project folders, when the project is the home folder", async () => {
    const home = writeTree({ ".claude/skills/mine/SKILL.md": skillMd("mine", "Mine.") });
    const registry = await createSkillRegistry({ sources: conventionalSources({ cwd: home, home }) });
    expect(registry.list().map((skill) => [skill.name, skill.origin.layer])).toEqual([["mine", "project"]]);
  });
});

describe("search index", () => {
  it("is built on the first search, and then follows reloads incrementally", async () => {
    const root = writeTree({
      "pdf-forms/SKILL.md": skillMd("pdf-forms", "Fill in PDF forms.", "Use pdftk to fill form fields."),
      "slides/SKILL.md": skillMd("slides", "Make slide decks."),
    });
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)] });
    expect(registry.search("pdftk")[0]?.name).toBe("pdf-forms");
    mkdirSync(join(root, "xlsx"));
    writeFileSync(
      join(root, "xlsx/SKILL.md"),
      skillMd("xlsx", "Work with spreadsheets.", "Use openpyxl for formulas."),
    );
    await registry.reload();
    expect(registry.search("openpyxl formulas")[0]?.name).toBe("xlsx");
  });

  it("ranks the same with eager and lazy building, and refuses an unknown mode", async () => {
    const root = writeTree({
      "a/SKILL.md": skillMd("a", "Alpha tasks.", "Body mentions zebra."),
      "b/SKILL.md": skillMd("b", "Beta tasks."),
    });
    const lazy = await createSkillRegistry({ sources: [skillsFromDirectory(root)] });
    const eager = await createSkillRegistry({ sources: [skillsFromDirectory(root)], searchIndex: "eager" });
    expect(eager.search("zebra")).toEqual(lazy.search("zebra"));
    await expect(createSkillRegistry({ sources: [], searchIndex: "sometimes" as "lazy" })).rejects.toMatchObject({
      option: "searchIndex",
    });
  });
});
