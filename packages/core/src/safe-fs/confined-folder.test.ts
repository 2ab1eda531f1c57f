import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync, existsSync, linkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { raceUntil } from "../../../../test/support/race-until.js";
import {
  confinedFolderIsRaceFree,
  openConfinedFolder,
  splitRelativePath,
  withConfinedFolder,
} from "./confined-folder.js";

function tree(): { root: string; outside: string } {
  const base = mkdtempSync(path.join(os.tmpdir(), "confined-"));
  const root = path.join(base, "root");
  const outside = path.join(base, "outside");
  mkdirSync(path.join(root, "a", "b"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(root, "a", "b", "file.txt"), "inside");
  writeFileSync(path.join(outside, "secret.txt"), "SECRET");
  return { root, outside };
}

describe("splitRelativePath", () => {
  it("refuses absolute, parent, NUL and drive paths and drops '.' segments", () => {
    expect(splitRelativePath("a/./b//c")).toEqual({ ok: true, names: ["a", "b", "c"] });
    for (const bad of ["/etc/passwd", "../x", "a/../../x", "a\0b", "C:\\x", "\\\\server\\share"]) {
      expect(splitRelativePath(bad).ok, bad).toBe(false);
    }
  });
});

describe("openConfinedFolder", () => {
  it("reads a regular file and refuses symlinks at any depth, FIFOs and folders", async () => {
    const { root, outside } = tree();
    symlinkSync(outside, path.join(root, "a", "dirlink"));
    symlinkSync(path.join(outside, "secret.txt"), path.join(root, "a", "filelink"));
    execFileSync("mkfifo", [path.join(root, "a", "fifo")]);
    await withConfinedFolder(root, async (folder) => {
      const read = await folder.readFile("a/b/file.txt", { maxBytes: 100 });
      expect(read.ok && read.bytes.toString()).toBe("inside");
      expect(await folder.readFile("a/dirlink/secret.txt", { maxBytes: 100 })).toMatchObject({
        ok: false,
        reason: "symlink",
      });
      expect(await folder.readFile("a/filelink", { maxBytes: 100 })).toMatchObject({ ok: false, reason: "symlink" });
      expect(await folder.readFile("a/fifo", { maxBytes: 100 })).toMatchObject({ ok: false, reason: "not-a-file" });
      expect(await folder.readFile("a/b", { maxBytes: 100 })).toMatchObject({ ok: false, reason: "not-a-file" });
      expect(await folder.readFile("a/b/file.txt", { maxBytes: 3 })).toMatchObject({ ok: false, reason: "too-large" });
      expect(await folder.readFile("../outside/secret.txt", { maxBytes: 100 })).toMatchObject({
        ok: false,
        reason: "invalid-path",
      });
      const head = await folder.readFile("a/b/file.txt", { maxBytes: 100, headBytes: 2 });
      expect(head.ok && head.bytes.toString()).toBe("in");
    });
  });

  it("follows a symlink only while its target stays inside, and only when asked", async () => {
    const { root, outside } = tree();
    symlinkSync("b/file.txt", path.join(root, "a", "relative-alias"));
    symlinkSync(path.join(root, "a", "b"), path.join(root, "absolute-alias"));
    symlinkSync("../../outside/secret.txt", path.join(root, "a", "climbs-out"));
    symlinkSync(path.join(outside, "secret.txt"), path.join(root, "absolute-out"));
    symlinkSync("loop", path.join(root, "loop"));
    await withConfinedFolder(root, async (folder) => {
      const follow = { maxBytes: 100, followInsideLinks: 8 };
      const relativeAlias = await folder.readFile("a/relative-alias", follow);
      expect(relativeAlias.ok && relativeAlias.bytes.toString()).toBe("inside");
      const absoluteAlias = await folder.readFile("absolute-alias/file.txt", follow);
      expect(absoluteAlias.ok && absoluteAlias.bytes.toString()).toBe("inside");
      expect(await folder.readFile("a/relative-alias", { maxBytes: 100 })).toMatchObject({
        ok: false,
        reason: "symlink",
      });
      expect(await folder.readFile("a/climbs-out", follow)).toMatchObject({ ok: false, reason: "symlink" });
      expect(await folder.readFile("absolute-out", follow)).toMatchObject({ ok: false, reason: "symlink" });
      expect(await folder.readFile("loop", follow)).toMatchObject({ ok: false, reason: "symlink" });
    });
  });

  it("writes through no symlink, FIFO or hard link and creates missing folders", async () => {
    const { root, outside } = tree();
    symlinkSync(outside, path.join(root, "a", "dirlink"));
    symlinkSync(path.join(outside, "target.txt"), path.join(root, "a", "dangling"));
    execFileSync("mkfifo", [path.join(root, "a", "fifo")]);
    linkSync(path.join(outside, "secret.txt"), path.join(root, "a", "hard"));
    const folder = await openConfinedFolder(root);
    try {
      expect(await folder.writeFile("in/new/data.csv", "x,y\n")).toEqual({ ok: true, path: "in/new/data.csv" });
      expect(readFileSync(path.join(root, "in", "new", "data.csv"), "utf8")).toBe("x,y\n");
      expect(await folder.writeFile("a/dirlink/evil", "pwned")).toMatchObject({ ok: false, reason: "symlink" });
      expect(await folder.writeFile("a/dangling", "pwned")).toMatchObject({ ok: false, reason: "symlink" });
      expect(await folder.writeFile("a/fifo", "pwned")).toMatchObject({ ok: false, reason: "not-a-file" });
      expect(await folder.writeFile("a/hard", "pwned")).toMatchObject({ ok: false, reason: "not-a-file" });
      expect(existsSync(path.join(outside, "evil"))).toBe(false);
      expect(existsSync(path.join(outside, "target.txt"))).toBe(false);
      expect(readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("SECRET");
    } finally {
      await folder.close();
    }
  });

  it("reads a window of a file from an offset", async () => {
    const { root } = tree();
    await withConfinedFolder(root, async (folder) => {
      const window = await folder.readFile("a/b/file.txt", { maxBytes: 100, offset: 2, headBytes: 3 });
      expect(window.ok && window.bytes.toString()).toBe("sid");
      expect(window.ok && window.size).toBe(6);
      const past = await folder.readFile("a/b/file.txt", { maxBytes: 100, offset: 9, headBytes: 3 });
      expect(past.ok && past.bytes.byteLength).toBe(0);
    });
  });

  it("removes an empty folder only: one with entries stays, a symlink at the name or on the way is refused", async () => {
    const { root, outside } = tree();
    mkdirSync(path.join(root, "a", "empty"));
    mkdirSync(path.join(outside, "victim"));
    symlinkSync(path.join(outside, "victim"), path.join(root, "a", "victimlink"));
    symlinkSync(outside, path.join(root, "dirlink"));
    await withConfinedFolder(root, async (folder) => {
      expect(await folder.removeEmptyFolder("a/empty")).toEqual({ ok: true, path: "a/empty" });
      expect(existsSync(path.join(root, "a", "empty"))).toBe(false);
      expect(await folder.removeEmptyFolder("a/b")).toMatchObject({ ok: false, reason: "exists" });
      expect(await folder.removeEmptyFolder("a/victimlink")).toMatchObject({ ok: false, reason: "not-a-folder" });
      expect(await folder.removeEmptyFolder("dirlink/victim")).toMatchObject({ ok: false, reason: "symlink" });
      expect(await folder.removeEmptyFolder("a/missing")).toMatchObject({ ok: false, reason: "not-found" });
      expect(await folder.removeEmptyFolder("")).toMatchObject({ ok: false, reason: "invalid-path" });
    });
    expect(existsSync(path.join(root, "a", "b", "file.txt"))).toBe(true);
    expect(existsSync(path.join(outside, "victim"))).toBe(true);
  });

  it("lists without following symlinks and stops at the entry cap", async () => {
    const { root, outside } = tree();
    symlinkSync(outside, path.join(root, "a", "dirlink"));
    const listed = await withConfinedFolder(root, (folder) => folder.list("a", { maxEntries: 100 }));
    expect(listed).toEqual({
      ok: true,
      truncated: false,
      entries: [
        { path: "b", kind: "folder" },
        { path: "b/file.txt", kind: "file", size: 6, mtimeMs: expect.any(Number) },
        { path: "dirlink", kind: "symlink" },
      ],
    });
    const capped = await withConfinedFolder(root, (folder) => folder.list("", { maxEntries: 2 }));
    expect(capped.ok && capped.truncated).toBe(true);
  });

  it.runIf(confinedFolderIsRaceFree())(
    "stays inside while a racer swaps a folder for a symlink to the outside",
    async () => {
      const { root, outside } = tree();
      writeFileSync(path.join(outside, "file.txt"), "OUTSIDE");
      mkdirSync(path.join(outside, "b"));
      writeFileSync(path.join(outside, "b", "file.txt"), "OUTSIDE");
      mkdirSync(path.join(outside, "b", "victim")); // an empty folder a removal through the symlink would take
      // the racer flips a/b between the real folder and a symlink to the outside as fast as it can
      const racer = spawn(
        "sh",
        [
          "-c",
          `cd '${path.join(root, "a")}' && while :; do mv -T b real; ln -s '${outside}/b' b; rm b; mv -T real b; done`,
        ],
        { stdio: "ignore" },
      );
      const racerClosed = once(racer, "close");
      try {
        const folder = await openConfinedFolder(root);
        const seen = new Set<string>();
        try {
          // at least 400 rounds, and on until some read met the symlink or the missing folder, within 20 s
          await raceUntil({
            name: "confined folder read while a folder is swapped for a symlink",
            minRounds: 400,
            timeBoundMs: 20_000,
            met: () => [...seen].some((outcome) => outcome === "symlink" || outcome === "not-found"),
            round: async () => {
              const read = await folder.readFile("a/b/file.txt", { maxBytes: 100 });
              seen.add(read.ok ? read.bytes.toString() : read.reason);
              await folder.writeFile("a/b/written.txt", "model content");
              await folder.removeEmptyFolder("a/b/victim");
            },
          });
        } finally {
          await folder.close();
        }
        expect(seen.has("OUTSIDE")).toBe(false);
        expect(existsSync(path.join(outside, "b", "written.txt"))).toBe(false);
        expect(existsSync(path.join(outside, "b", "victim"))).toBe(true);
      } finally {
        racer.kill("SIGKILL");
        await racerClosed;
      }
    },
    60_000,
  );
});
