import { makeFifo as mkfifoSync } from "../skill/__fixtures__/mkfifo.js";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { skillMd, writeTree } from "../../../../test/support/skill-tree.js";
import { checkRelativePath, listSkillFiles, readSkillResource } from "./skill-resources.js";

describe("skill resource files (level 3)", () => {
  const secret = writeTree({ "secret.txt": "top secret" });
  const root = writeTree({
    "demo/SKILL.md": skillMd("demo", "Demo."),
    "demo/references/guide.md": "# Guide\n",
    "demo/scripts/run.sh": "#!/bin/sh\necho hi\n",
    "demo/.hidden": "no",
    "demo/nested/SKILL.md": skillMd("nested", "A nested skill."),
  });
  const dir = join(root, "demo");
  writeFileSync(join(dir, "image.bin"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]));
  writeFileSync(join(dir, "big.txt"), "x".repeat(300 * 1024));
  symlinkSync(join(secret, "secret.txt"), join(dir, "escape.txt"));
  symlinkSync(join(dir, "references/guide.md"), join(dir, "alias.md"));

  it("lists files with sizes, without SKILL.md, dot-files, nested skills or links leading outside", async () => {
    const files = await listSkillFiles(dir);
    expect(files.map((file) => file.path)).toEqual([
      "alias.md",
      "big.txt",
      "image.bin",
      "references/guide.md",
      "scripts/run.sh",
    ]);
  });

  it.each([
    ["../other/SKILL.md", "traversal"],
    ["references/../../other", "traversal"],
    ["..", "traversal"],
    ["/etc/passwd", "absolute"],
    ["C:\\Windows\\win.ini", "absolute"],
    ["references/guide.md\0.png", "nul-byte"],
    ["", "not-found"],
    ["escape.txt", "symlink-escape"],
    ["missing.md", "not-found"],
    ["references", "not-a-file"],
    ["image.bin", "binary"],
    ["big.txt", "too-large"],
  ])("refuses %j (%s)", async (path, reason) => {
    await expect(readSkillResource("demo", dir, path)).rejects.toMatchObject({ reason, skillName: "demo" });
  });

  it("reads a text file and a symlink that stays inside the folder", async () => {
    expect((await readSkillResource("demo", dir, "references/guide.md")).content).toBe("# Guide\n");
    expect((await readSkillResource("demo", dir, "./alias.md")).content).toBe("# Guide\n");
  });

  it("refuses a FIFO without blocking", async () => {
    const fifo = join(dir, "pipe");
    mkfifoSync(fifo);
    await expect(readSkillResource("demo", dir, "pipe")).rejects.toMatchObject({ reason: "not-a-file" });
  });

  it("normalises harmless relative paths", () => {
    expect(checkRelativePath("demo", "references/./guide.md")).toBe("references/guide.md");
    expect(checkRelativePath("demo", "references\\guide.md")).toBe("references/guide.md");
  });
});
