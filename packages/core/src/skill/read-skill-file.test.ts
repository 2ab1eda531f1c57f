import { mkdirSync, readFileSync, statSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import { readRegularFileCapped } from "../internal/fs-read-capped.js";
import { makeFifo } from "./__fixtures__/mkfifo.js";
import { skillText, useTempFolder } from "./__fixtures__/skill-folders.js";
import { readListedSkillMd, readSkillMdFile } from "./read-skill-file.js";

const temp = useTempFolder("skillgraph-read-");
const content = skillText("name: x\ndescription: y");

async function firstCode(dir: string, options?: Parameters<typeof readSkillMdFile>[1]) {
  const read = await readSkillMdFile(dir, options);
  return read.ok ? "ok" : read.diagnostics[0]?.code;
}

describe("readSkillMdFile", () => {
  it("returns the raw bytes, the decoded text and the fstat identity", async () => {
    const dir = temp.skill("plain", content);
    const read = await readSkillMdFile(dir);
    const stats = statSync(join(dir, "SKILL.md"));
    expect(read.ok && read.text).toBe(content);
    expect(read.ok && read.bytes.equals(readFileSync(join(dir, "SKILL.md")))).toBe(true);
    expect(read.ok && read.identity).toEqual({ mtimeMs: stats.mtimeMs, size: stats.size, ino: stats.ino });
  });

  it("prefers SKILL.md over skill.md and accepts skill.md alone with a warning", async () => {
    const both = temp.skill("both", "upper");
    writeFileSync(join(both, "skill.md"), "lower");
    const read = await readSkillMdFile(both);
    expect(read.ok && read.text).toBe("upper");
    const lower = await readSkillMdFile(temp.skill("lower", "lower", "skill.md"));
    expect(lower.ok && lower.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["skill-md-lowercase"]);
  });

  it("refuses a 100 MB sparse SKILL.md from its stat, reporting its exact size without reading it", async () => {
    const dir = temp.skill("huge", content);
    truncateSync(join(dir, "SKILL.md"), 100 * 1024 * 1024);
    const read = await readSkillMdFile(dir);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.diagnostics[0]?.code).toBe("file-too-large");
    expect(!read.ok && read.diagnostics[0]?.message).toContain(
      `${100 * 1024 * 1024} bytes, over the 1048576-byte limit`,
    );
  });

  it("accepts a file of exactly maxBytes and refuses one byte more", async () => {
    const dir = temp.skill("edge", "12345678");
    expect(await firstCode(dir, { maxBytes: 8 })).toBe("ok");
    expect(await firstCode(dir, { maxBytes: 7 })).toBe("file-too-large");
  });

  // /proc files stat as size 0 but hold data: the only portable-enough way to show the read loop's own cap.
  it.skipIf(process.platform !== "linux")(
    "enforces the cap while reading, for a file whose stat size understates it",
    async () => {
      expect(statSync("/proc/self/maps").size).toBe(0);
      const read = await readRegularFileCapped("/proc/self/maps", 100);
      expect(!read.ok && read.reason).toBe("too-large");
      expect(!read.ok && read.reason === "too-large" && read.bytesSeen).toBe(101);
    },
  );

  it("refuses a FIFO named SKILL.md without blocking", async () => {
    const dir = join(temp.root(), "fifo");
    mkdirSync(dir);
    makeFifo(join(dir, "SKILL.md"));
    expect(await firstCode(dir)).toBe("not-a-regular-file");
    // Even opened directly (no stat guard), the O_NONBLOCK open returns at once and fstat refuses it.
    const read = await readRegularFileCapped(join(dir, "SKILL.md"), 1024);
    expect(!read.ok && read.reason).toBe("not-regular");
  });

  it("refuses a directory named SKILL.md and a SKILL.md symlinked to a device", async () => {
    const dir = join(temp.root(), "folder-file");
    mkdirSync(join(dir, "SKILL.md"), { recursive: true });
    expect(await firstCode(dir)).toBe("not-a-regular-file");
    const device = join(temp.root(), "device");
    mkdirSync(device);
    symlinkSync("/dev/zero", join(device, "SKILL.md"));
    const read = await readSkillMdFile(device);
    expect(!read.ok && read.diagnostics[0]?.message).toContain("a device");
  });

  it("refuses a SKILL.md symlink resolving outside the root, and accepts one inside it", async () => {
    const root = join(temp.root(), "root");
    const target = temp.skill("root/shared", content);
    const inside = join(root, "inside");
    mkdirSync(inside);
    symlinkSync(join(target, "SKILL.md"), join(inside, "SKILL.md"));
    expect(await firstCode(inside, { root })).toBe("ok");
    const outsideTarget = temp.skill("elsewhere", content);
    const escaping = join(root, "escaping");
    mkdirSync(escaping);
    symlinkSync(join(outsideTarget, "SKILL.md"), join(escaping, "SKILL.md"));
    expect(await firstCode(escaping, { root })).toBe("symlink-escape");
    expect(await firstCode(escaping)).toBe("ok");
  });

  it("treats a dangling symlink and a symlink loop as a missing SKILL.md, saying which", async () => {
    const dangling = join(temp.root(), "dangling");
    mkdirSync(dangling);
    symlinkSync(join(dangling, "nowhere.md"), join(dangling, "SKILL.md"));
    const read = await readSkillMdFile(dangling);
    expect(!read.ok && read.diagnostics[0]?.code).toBe("skill-md-missing");
    expect(!read.ok && read.diagnostics[0]?.message).toContain("dangling symlink");
    const loop = join(temp.root(), "loop");
    mkdirSync(loop);
    symlinkSync(join(loop, "SKILL.md"), join(loop, "SKILL.md"));
    const looped = await readSkillMdFile(loop);
    expect(!looped.ok && looped.diagnostics[0]?.message).toContain("symlink loop");
  });

  it("reports invalid UTF-8 as encoding-invalid", async () => {
    expect(await firstCode(temp.skill("binary", Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x00, 0xc3])))).toBe(
      "encoding-invalid",
    );
  });

  it("rejects a non-positive or fractional maxBytes with InvalidOptionsError", async () => {
    await expect(readSkillMdFile(temp.root(), { maxBytes: 0 })).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(readSkillMdFile(temp.root(), { maxBytes: 1.5 })).rejects.toBeInstanceOf(InvalidOptionsError);
  });
});

describe("readListedSkillMd", () => {
  const listed = (dir: string, fileName = "SKILL.md") => ({ dir, file: join(dir, fileName), root: dir });

  it("reads a plain SKILL.md exactly as readSkillMdFile does (bytes, text with its BOM, identity, warnings)", async () => {
    for (const [name, text, fileName] of [
      ["fast-plain", content, "SKILL.md"],
      ["fast-bom", `\uFEFF${content}`, "SKILL.md"],
      ["fast-lower", content, "skill.md"],
      ["fast-empty", "", "SKILL.md"],
    ] as const) {
      const dir = temp.skill(name, text, fileName);
      const fast = await readListedSkillMd(listed(dir, fileName), 1024);
      const careful = await readSkillMdFile(dir, { maxBytes: 1024, root: dir });
      expect(fast).toBeDefined();
      expect({ ...fast, bytes: fast!.bytes.toString("hex") }).toEqual(
        careful.ok ? { ...careful, bytes: careful.bytes.toString("hex") } : careful,
      );
    }
  });

  it("leaves every case that needs a diagnostic or a symlink check to readSkillMdFile (returns undefined)", async () => {
    const overCap = temp.skill("fast-big", "x".repeat(2048));
    const atCap = temp.skill("fast-cap", "x".repeat(1024));
    const badUtf8 = temp.skill("fast-utf8", Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe]));
    const target = temp.skill("fast-target", content);
    const linked = join(temp.root(), "fast-link");
    mkdirSync(linked);
    symlinkSync(join(target, "SKILL.md"), join(linked, "SKILL.md"));
    const fifo = join(temp.root(), "fast-fifo");
    mkdirSync(fifo);
    makeFifo(join(fifo, "SKILL.md"));
    const folderNamed = join(temp.root(), "fast-folder");
    mkdirSync(join(folderNamed, "SKILL.md"), { recursive: true });
    expect((await readListedSkillMd(listed(atCap), 1024))?.bytes.length).toBe(1024);
    for (const dir of [overCap, badUtf8, linked, fifo, folderNamed, join(temp.root(), "fast-missing")])
      expect(await readListedSkillMd(listed(dir), 1024), dir).toBeUndefined();
    // A root other than the skill folder needs the realpath check; a file not directly in the folder is not "listed".
    expect(await readListedSkillMd({ ...listed(target), root: temp.root() }, 1024)).toBeUndefined();
    expect(await readListedSkillMd({ ...listed(target), file: join(target, "other.md") }, 1024)).toBeUndefined();
  });
});
