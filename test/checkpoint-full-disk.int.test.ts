// A full disk under the sessions database and under the registry snapshot, on a real small file system: a 2 MB tmpfs
// mounted for the test (needs root; skipped with the reason otherwise), filled with a filler file until ENOSPC.
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildSessionGraph, userTurn } from "../packages/checkpoint/src/__fixtures__/session-graph.js";
import {
  CheckpointerError,
  closeCheckpointer,
  createCheckpointer,
  inspectSession,
} from "../packages/checkpoint/src/index.js";
import { createSkillRegistry, skillsFromDirectory } from "../packages/core/src/index.js";
import { startLineChild } from "./support/line-child.js";

const mountPoint = mkdtempSync(join(tmpdir(), "sg-full-disk-"));
const mounted =
  process.platform === "linux" &&
  spawnSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", mountPoint], { stdio: "ignore" }).status === 0;
afterAll(() => {
  if (mounted) spawnSync("umount", ["-l", mountPoint], { stdio: "ignore" });
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Fills the file system with one file until ENOSPC; returns a function that frees it. */
function fillDisk(dir: string): () => void {
  const path = join(dir, `filler-${Date.now()}`);
  const fd = openSync(path, "w");
  const chunk = Buffer.alloc(16 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  }
  // What a 16 KB write could not take, smaller ones can: leave no room at all.
  try {
    for (;;) writeSync(fd, Buffer.alloc(512, 1));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
  return () => rmSync(path, { force: true });
}

const humans = async (saver: Awaited<ReturnType<typeof createCheckpointer>>, thread: string) =>
  (await inspectSession(saver, thread)).messages.filter((m) => m.type === "human").map((m) => m.content);

describe.skipIf(!mounted)("a full disk (2 MB tmpfs; mounting one needs root)", () => {
  it("under the sessions database: the write fails with checkpointer-disk-full, the session stays readable and resumes once space is back", async () => {
    const dir = join(mountPoint, "sessions");
    mkdirSync(dir);
    const saver = await createCheckpointer(`sqlite:${join(dir, "sessions.db")}`);
    const graph = buildSessionGraph({ checkpointer: saver, messages: "delta", script: [], lookup: () => undefined });
    const config = { configurable: { thread_id: "full" } };
    await graph.invoke(userTurn("one", "one"), config);
    await graph.invoke(userTurn("two", "two"), config);
    const free = fillDisk(mountPoint);
    let error: unknown;
    try {
      // A large message, so the write cannot fit in pages SQLite already has.
      error = await graph.invoke(userTurn(`three ${"x".repeat(64 * 1024)}`, "three"), config).catch((e: unknown) => e);
      expect(CheckpointerError.isInstance(error), String(error)).toBe(true);
      expect((error as CheckpointerError).reason).toBe("disk-full");
      expect((error as Error).message).toMatch(/disk is full.*nothing was written/);
      expect(await humans(saver, "full")).toEqual(["one", "two"]); // loads on the full disk
    } finally {
      free();
    }
    await graph.invoke(userTurn("four", "four"), config);
    const turns = await humans(saver, "full");
    expect(turns.filter((text) => !text.startsWith("three"))).toEqual(["one", "two", "four"]);
    await closeCheckpointer(saver);
  });

  it("a fresh process opens the sessions database on a full disk and reads every session; its write fails with disk-full", async () => {
    const dir = join(mountPoint, "fleet");
    mkdirSync(dir);
    const url = `sqlite:${join(dir, "sessions.db")}`;
    // A worker that keeps running (its connection keeps the WAL index, <file>-shm, in place) wrote three sessions.
    const worker = await createCheckpointer(url);
    const graph = buildSessionGraph({ checkpointer: worker, messages: "delta", script: [], lookup: () => undefined });
    const written: Record<string, string[]> = { a: ["a-1", "a-2"], b: ["b-1"], c: ["c-1", "c-2", "c-3"] };
    for (const [thread, turns] of Object.entries(written))
      for (const turn of turns) await graph.invoke(userTurn(turn, turn), { configurable: { thread_id: thread } });
    const reader = async () => {
      const child = startLineChild("test/support/fleet-sessions-reader.ts", [url, "a"]);
      const { code } = await child.exited;
      expect(code, child.stderr()).toBe(0);
      return child.lines.at(-1)!;
    };
    const free = fillDisk(mountPoint);
    try {
      const seen = await reader();
      expect(seen.openFailed, JSON.stringify(seen)).toBeUndefined();
      expect(seen.sessions).toEqual(written);
      expect(seen.write).toMatchObject({ ok: false, code: "checkpointer-disk-full" });
      expect(String((seen.write as { message: string }).message)).toMatch(/disk is full.*nothing was written/);
      await closeCheckpointer(worker);
      // The last connection closed. On a full disk SQLite may keep <file>-wal (its frames could not be copied back)
      // and -shm; a -shm no process has open is only a cache of the WAL's index, rebuilt on the next open. Remove it,
      // as if the file had been closed with room to spare and the disk filled up later: the next open must build it.
      rmSync(join(dir, "sessions.db-shm"), { force: true });
      const refill = fillDisk(mountPoint);
      try {
        // Nobody has the file open: SQLite must first make its 32 KB WAL index, and there is no room for it. The
        // open fails, saying so (reading in exclusive mode instead would hold every other process off the file).
        const alone = await reader();
        expect(alone.openFailed, JSON.stringify(alone)).toMatchObject({ code: "checkpointer-disk-full" });
        expect(String((alone.openFailed as { message: string }).message)).toMatch(/disk is full.*-shm/);
      } finally {
        refill();
      }
    } finally {
      free();
    }
    const after = await reader(); // space is back: the same process run writes
    expect(after.write).toEqual({ ok: true });
    expect(after.sessions).toEqual(written);
  });

  it("under the registry snapshot: loading still works and the skipped write is a warning", async () => {
    const skills = mkdtempSync(join(tmpdir(), "sg-full-disk-skills-"));
    const skillMd = (description: string) =>
      `---\nname: disk-skill\ndescription: ${description}\n---\n\n# Disk skill\n\nBody.\n`;
    mkdirSync(join(skills, "disk-skill"));
    writeFileSync(join(skills, "disk-skill", "SKILL.md"), skillMd("First description."));
    const snapshot = join(mountPoint, "snapshot", "registry.json");
    mkdirSync(join(mountPoint, "snapshot"));
    const first = await createSkillRegistry({ sources: [skillsFromDirectory(skills)], snapshot });
    expect(first.get("disk-skill")?.description).toBe("First description.");
    await first.close();
    const free = fillDisk(mountPoint);
    try {
      writeFileSync(join(skills, "disk-skill", "SKILL.md"), skillMd("Second description, longer than the first one."));
      const warnings: string[] = [];
      const again = await createSkillRegistry({ sources: [skillsFromDirectory(skills)], snapshot });
      expect(again.get("disk-skill")?.description).toBe("Second description, longer than the first one.");
      for (const diagnostic of again.diagnostics())
        if (diagnostic.severity === "warning") warnings.push(diagnostic.code);
      expect(warnings).toContain("registry-snapshot-unwritable");
      expect(again.search("disk skill").map((result) => result.name)).toContain("disk-skill");
      await again.close();
    } finally {
      free();
      rmSync(skills, { recursive: true, force: true });
    }
  });
});
