// Attacks on level-3 reads and SKILL.md reads: the model asks for files it must not see (a hard link to a host file, a
// nested skill hidden from this agent), passes a size cap that is not a number, or someone who can write a skill folder
// swaps SKILL.md for a symlink to an outside file while the registry reads it.
import { linkSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { createSkillRegistry, InvalidOptionsError, SkillPathError, skillsFromDirectory } from "@skillgraph/core";
import { describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../support/skill-tree.js";

describe("attack: level-3 reads of files that are not the skill's", () => {
  it("a hard link inside a skill folder is neither listed nor served", async () => {
    const outside = writeTree({ "secret.txt": "HOST-SECRET" }, "skillgraph-outside-");
    const root = writeTree({ "notes/SKILL.md": skillMd("notes", "Notes."), "notes/ok.md": "fine" });
    linkSync(join(outside, "secret.txt"), join(root, "notes", "ref.md"));
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: false });
    expect((await registry.listFiles("notes")).map((file) => file.path)).toEqual(["ok.md"]);
    const refused = await registry.readFile("notes", "ref.md").catch((error: unknown) => error);
    expect(SkillPathError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toMatch(/hard link/);
  });

  it("a nested skill excluded from the agent cannot be read through its parent, directly or through a symlink", async () => {
    const root = writeTree({
      "parent/SKILL.md": skillMd("parent", "Parent."),
      "parent/guide.md": "parent guide",
      "parent/child/SKILL.md": skillMd("child", "Hidden child."),
      "parent/child/secret.md": "CHILD-SECRET",
    });
    symlinkSync("child", join(root, "parent", "shortcut"));
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: false });
    const agent = registry.view({ exclude: ["child"] });
    expect(agent.has("child")).toBe(false);
    for (const path of ["child/secret.md", "child/SKILL.md", "shortcut/secret.md", "./child//secret.md"]) {
      const refused = await agent.readFile("parent", path).catch((error: unknown) => error);
      expect(SkillPathError.isInstance(refused), path).toBe(true);
      expect((refused as Error).message).toMatch(/another skill's folder/);
    }
    expect((await agent.listFiles("parent")).map((file) => file.path)).toEqual(["guide.md"]);
    expect((await agent.readFile("parent", "guide.md")).content).toBe("parent guide");
  });

  it("maxBytes that is not a non-negative integer is a typed error naming the option", async () => {
    const root = writeTree({ "notes/SKILL.md": skillMd("notes", "Notes."), "notes/ok.md": "fine" });
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: false });
    for (const maxBytes of [Number.NaN, Infinity, 1.5, -1, "10" as unknown as number]) {
      const refused = await registry.readFile("notes", "ok.md", { maxBytes }).catch((error: unknown) => error);
      expect(InvalidOptionsError.isInstance(refused), String(maxBytes)).toBe(true);
      expect((refused as Error).message).toMatch(/maxBytes/);
    }
    expect((await registry.readFile("notes", "ok.md", { maxBytes: 4 })).content).toBe("fine");
  });
});

/** Swaps `file` between a regular SKILL.md and a symlink to `outside` (each by an atomic rename) until stopped. */
function startSwapper(file: string, outside: string, inside: string): { stop(): Promise<number> } {
  const flag = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(
    `const { workerData } = require("node:worker_threads");
     const fs = require("node:fs");
     const { file, outside, inside, flag } = workerData;
     const link = file + ".link", plain = file + ".plain";
     let swaps = 0;
     while (Atomics.load(flag, 0) === 0) {
       try { fs.rmSync(link, { force: true }); fs.symlinkSync(outside, link); fs.renameSync(link, file);
             fs.writeFileSync(plain, inside); fs.renameSync(plain, file); swaps += 2; } catch {}
     }
     Atomics.store(flag, 1, swaps);`,
    { eval: true, workerData: { file, outside, inside, flag } },
  );
  return {
    async stop() {
      Atomics.store(flag, 0, 1);
      await new Promise((done) => worker.once("exit", done));
      return Atomics.load(flag, 1);
    },
  };
}

describe("attack: SKILL.md swapped for a symlink to an outside file while it is read", () => {
  it("readBody and reload never return the outside file (runs 6 s or until an outside body is seen)", async () => {
    const inside = skillMd("notes", "Inside notes.", "INSIDE body.");
    const outsideDir = writeTree(
      { "SKILL.md": skillMd("notes", "OUTSIDE", "OUTSIDE-SECRET body.") },
      "skillgraph-out-",
    );
    const root = writeTree({ "notes/SKILL.md": inside });
    mkdirSync(join(root, "spare"));
    const file = join(root, "notes", "SKILL.md");
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(root)], snapshot: false });
    const swapper = startSwapper(file, join(outsideDir, "SKILL.md"), inside);
    let reads = 0;
    let refused = 0;
    let leaked = 0;
    const deadline = Date.now() + 6000;
    try {
      while (Date.now() < deadline && leaked === 0) {
        const bodies = await Promise.all(
          Array.from({ length: 32 }, () => registry.readBody("notes").catch(() => undefined)),
        );
        for (const body of bodies) {
          reads++;
          if (body === undefined) refused++;
          else if (body.includes("OUTSIDE")) leaked++;
        }
        // The spare folder's stat changes so the reload re-lists; SKILL.md's own stat changes with every swap.
        writeFileSync(join(root, "spare", "touch"), String(reads));
        await registry.reload();
        const loaded = registry.get("notes");
        if (loaded === undefined) refused++;
        else if (loaded.description === "OUTSIDE") leaked++;
      }
    } finally {
      const swaps = await swapper.stop();
      renameSync(file, `${file}.done`);
      console.info(
        `SKILL.md swap race: ${refused > 0 ? "seen" : "not met"} (${reads} reads, ${refused} refused while swapped, ${swaps} swaps, ${leaked} outside bodies)`,
      );
    }
    expect(leaked).toBe(0);
  }, 30_000);
});
