import { mkdirSync, mkdtempSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { collectOutputFiles } from "./collect-output-files.js";
import { compileOutputGlobs } from "./output-globs.js";
import { ThreadWorkspaces } from "./thread-workspaces.js";

function workspaceWithOutputs(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "shell-collect-"));
  mkdirSync(path.join(dir, "out", "charts"), { recursive: true });
  writeFileSync(path.join(dir, "out", "report.md"), "# Report\n");
  writeFileSync(
    path.join(dir, "out", "charts", "q3.png"),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
  );
  writeFileSync(path.join(dir, "out", "big.txt"), "x".repeat(5_000));
  symlinkSync("/etc/passwd", path.join(dir, "out", "passwd"));
  return dir;
}

describe("collectOutputFiles", () => {
  it("reports files with MIME types and inline text, and never follows symlinks", async () => {
    const collected = await collectOutputFiles(workspaceWithOutputs(), { maxFileBytes: 4_096 });
    expect(collected.files.map((file) => [file.path, file.mimeType])).toEqual([
      ["out/big.txt", "text/plain"],
      ["out/charts/q3.png", "image/png"],
      ["out/report.md", "text/markdown"],
    ]);
    expect(collected.files.find((file) => file.path === "out/report.md")?.content).toBe("# Report\n");
    expect(collected.files.find((file) => file.path === "out/charts/q3.png")?.content).toBeUndefined();
    expect(collected.skipped).toEqual(
      expect.arrayContaining([
        { path: "out/passwd", reason: "symlink" },
        { path: "out/big.txt", reason: "too-large" },
      ]),
    );
  });

  it("applies globs, the file cap and the modified-since filter", async () => {
    const dir = workspaceWithOutputs();
    const old = new Date(Date.now() - 60_000);
    utimesSync(path.join(dir, "out", "big.txt"), old, old);
    const png = compileOutputGlobs(["**/*.png"]);
    if (!png.ok) throw new Error(png.message);
    expect((await collectOutputFiles(dir, { match: png.match })).files.map((file) => file.path)).toEqual([
      "out/charts/q3.png",
    ]);
    expect(
      (await collectOutputFiles(dir, { modifiedSince: Date.now() - 30_000 })).files.map((file) => file.path),
    ).not.toContain("out/big.txt");
    const capped = await collectOutputFiles(dir, { maxFiles: 1 });
    expect(capped.files).toHaveLength(1);
    expect(capped.skipped.filter((entry) => entry.reason === "too-many-files")).toHaveLength(2);
  });
});

describe("ThreadWorkspaces.stage", () => {
  it("writes inside the workspace and refuses traversal and planted symlinks", async () => {
    const workspaces = new ThreadWorkspaces(mkdtempSync(path.join(os.tmpdir(), "shell-stage-")));
    expect(await workspaces.stage("t", [{ path: "in/data.csv", content: "a,b\n" }])).toEqual(["in/data.csv"]);
    await expect(workspaces.stage("t", [{ path: "../x", content: "" }])).rejects.toThrow(/stay inside/);
    await expect(workspaces.stage("t", [{ path: "/etc/x", content: "" }])).rejects.toThrow(/stay inside/);
    symlinkSync("/tmp", path.join(workspaces.pathFor("t"), "in", "tmp-link"));
    await expect(workspaces.stage("t", [{ path: "in/tmp-link/evil", content: "" }])).rejects.toThrow(/symbolic link/);
    symlinkSync("/tmp/shell-stage-target", path.join(workspaces.pathFor("t"), "in", "file-link"));
    await expect(workspaces.stage("t", [{ path: "in/file-link", content: "" }])).rejects.toThrow();
  });

  it("names workspaces by a hash, so a thread id cannot name a path", () => {
    const workspaces = new ThreadWorkspaces("/srv/ws");
    expect(workspaces.pathFor("../../etc")).toMatch(/^\/srv\/ws\/thread-[0-9a-f]{24}$/);
  });
});
