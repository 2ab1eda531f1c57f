import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { artifactStoreFromBaseStore } from "../artifacts/artifact-store.js";
import { READ_OUTPUT_MAX_BYTES, readOutputRef, type OutputWindow } from "./read-output-ref.js";

function workspace() {
  const base = mkdtempSync(join(tmpdir(), "read-output-"));
  const dir = join(base, "ws");
  mkdirSync(join(dir, "out"), { recursive: true });
  writeFileSync(join(base, "secret.txt"), "SECRET");
  return { dir, base };
}

const context = (workspaceDir: string, artifacts?: ReturnType<typeof artifactStoreFromBaseStore>) => ({
  workspaceDir,
  threadId: "t1",
  artifacts,
});

describe("readOutputRef", () => {
  it("reads a workspace file by its ref, in windows that go on at next_offset", async () => {
    const { dir } = workspace();
    const text = "line one\n".repeat(10);
    writeFileSync(join(dir, "out/report.md"), text);
    const whole = await readOutputRef({ ref: "workspace://out/report.md" }, context(dir));
    expect(whole).toEqual({
      status: "ok",
      ref: "workspace://out/report.md",
      size: 90,
      mime_type: "text/markdown",
      offset: 0,
      content: text,
    });
    let read = "";
    let offset: number | undefined = 0;
    for (let calls = 0; offset !== undefined && calls < 10; calls += 1) {
      const window = (await readOutputRef(
        { ref: "workspace://out/report.md", offset, maxBytes: 16 },
        context(dir),
      )) as OutputWindow;
      read += window.content;
      offset = window.next_offset;
    }
    expect(read).toBe(text);
  });

  it("cuts windows at whole UTF-8 characters, never inside one", async () => {
    const { dir } = workspace();
    const text = "é€😀".repeat(20); // 2-, 3- and 4-byte characters
    writeFileSync(join(dir, "out/u.txt"), text);
    let read = "";
    let offset: number | undefined = 0;
    for (let calls = 0; offset !== undefined && calls < 40; calls += 1) {
      const window = (await readOutputRef(
        { ref: "workspace://out/u.txt", offset, maxBytes: 17 },
        context(dir),
      )) as OutputWindow;
      expect(window.content).not.toContain("\uFFFD");
      read += window.content;
      offset = window.next_offset;
    }
    expect(read).toBe(text);
    // an offset inside a character starts at the next whole one
    const inside = (await readOutputRef({ ref: "workspace://out/u.txt", offset: 1 }, context(dir))) as OutputWindow;
    expect(inside.offset).toBe(2);
    expect(inside.content!.startsWith("€")).toBe(true);
  });

  it("does not show bytes that are not text, and caps a window at the most a read returns", async () => {
    const { dir } = workspace();
    writeFileSync(join(dir, "out/blob.bin"), Buffer.from([0, 1, 2, 255]));
    writeFileSync(join(dir, "out/big.txt"), "x".repeat(READ_OUTPUT_MAX_BYTES + 10));
    expect(await readOutputRef({ ref: "workspace://out/blob.bin" }, context(dir))).toMatchObject({
      binary: true,
      size: 4,
      note: expect.stringContaining("inputs: [{ from: ref }]"),
    });
    const big = (await readOutputRef(
      { ref: "workspace://out/big.txt", maxBytes: 10 * READ_OUTPUT_MAX_BYTES },
      context(dir),
    )) as OutputWindow;
    expect(big.content).toHaveLength(READ_OUTPUT_MAX_BYTES);
    expect(big.next_offset).toBe(READ_OUTPUT_MAX_BYTES);
  });

  it("refuses a symlink out of the workspace, '..', a missing file or workspace and an unknown scheme", async () => {
    const { dir, base } = workspace();
    symlinkSync(join(base, "secret.txt"), join(dir, "out/link.txt"));
    symlinkSync(base, join(dir, "up"));
    const refused = async (ref: string, workspaceDir = dir) =>
      (await readOutputRef({ ref }, context(workspaceDir))) as { ok: false; reason: string; message: string };
    expect(await refused("workspace://out/link.txt")).toMatchObject({ reason: "symlink-escape" });
    expect(await refused("workspace://up/secret.txt")).toMatchObject({ reason: "symlink-escape" });
    expect(await refused("workspace://../secret.txt")).toMatchObject({ reason: "path-traversal" });
    expect(await refused("workspace://out/none.txt")).toMatchObject({ reason: "not-found" });
    expect(await refused("workspace://out/x.txt", join(base, "missing"))).toMatchObject({
      reason: "not-found",
      message: expect.stringContaining("has no workspace"),
    });
    expect(await refused("file:///etc/passwd")).toMatchObject({ reason: "invalid-input" });
    expect(JSON.stringify(await refused("workspace://out/link.txt"))).not.toContain("SECRET");
  });

  it("reads an artifact by its ref, the newest or a given version, only the thread's own", async () => {
    const { dir } = workspace();
    const store = artifactStoreFromBaseStore(new InMemoryStore());
    await store.save("t1", {
      name: "r.md",
      bytes: Buffer.from("first"),
      mimeType: "text/markdown",
      savedFrom: "out/r.md",
    });
    await store.save("t1", {
      name: "r.md",
      bytes: Buffer.from("second"),
      mimeType: "text/markdown",
      savedFrom: "out/r.md",
    });
    await store.save("t2", {
      name: "o.md",
      bytes: Buffer.from("other"),
      mimeType: "text/markdown",
      savedFrom: "out/o.md",
    });
    expect(await readOutputRef({ ref: "artifact://r.md" }, context(dir, store))).toMatchObject({
      content: "second",
      mime_type: "text/markdown",
    });
    expect(await readOutputRef({ ref: "artifact://r.md@1", offset: 2 }, context(dir, store))).toMatchObject({
      content: "rst",
      size: 5,
    });
    expect(await readOutputRef({ ref: "artifact://o.md" }, context(dir, store))).toMatchObject({ reason: "not-found" });
    expect(await readOutputRef({ ref: "artifact://r.md" }, context(dir))).toMatchObject({
      reason: "not-found",
      message: expect.stringContaining("no artifact store"),
    });
  });
});
