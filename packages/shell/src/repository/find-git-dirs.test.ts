import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RepositoryScanError } from "../errors/repository-scan-error.js";
import { findGitDirs, findGitDirsAsync } from "./find-git-dirs.js";

function gitDir(dir: string, extra: string[] = ["objects", "refs"]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(path.join(dir, "config"), "");
  for (const name of extra)
    if (name === "commondir") writeFileSync(path.join(dir, name), "../..\n");
    else mkdirSync(path.join(dir, name));
}

describe("findGitDirs", () => {
  it("finds .git folders, bare repositories, submodule and worktree git folders, and no symlinked one", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "git-dirs-"));
    gitDir(path.join(root, "a", ".git"), ["objects", "refs", "hooks"]);
    gitDir(path.join(root, "a", ".git", "modules", "s"));
    gitDir(path.join(root, "a", ".git", "worktrees", "w"), ["commondir"]);
    gitDir(path.join(root, "deep", "x", "bare"));
    // a common folder a worktree's commondir may name: objects/ and refs/ without HEAD
    mkdirSync(path.join(root, "common", "objects"), { recursive: true });
    mkdirSync(path.join(root, "common", "refs"));
    writeFileSync(path.join(root, "common", "config"), "");
    // not a git folder: HEAD and config alone
    mkdirSync(path.join(root, "plain"));
    writeFileSync(path.join(root, "plain", "HEAD"), "");
    writeFileSync(path.join(root, "plain", "config"), "");
    gitDir(path.join(root, "..", `${path.basename(root)}-outside`));
    symlinkSync(path.join(root, "..", `${path.basename(root)}-outside`), path.join(root, "link"));
    const found = findGitDirs([root], { maxRepositories: 10, maxFolders: 1000 });
    expect(found.map((entry) => path.relative(root, entry.dir)).sort()).toEqual([
      "a/.git",
      "a/.git/modules/s",
      "a/.git/worktrees/w",
      "common",
      "deep/x/bare",
    ]);
    expect(found.find((entry) => entry.dir.endsWith("a/.git"))).toMatchObject({ configFiles: ["config"], hooks: true });
  });

  it("fails closed past its bounds", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "git-dirs-"));
    for (let index = 0; index < 3; index += 1) gitDir(path.join(root, `r${index}`, ".git"));
    expect(() => findGitDirs([root], { maxRepositories: 2, maxFolders: 1000 })).toThrow(RepositoryScanError);
    expect(() => findGitDirs([root], { maxRepositories: 10, maxFolders: 5 })).toThrow(/more than 5 folders/);
  });

  it("in slices (findGitDirsAsync): the same folders across two roots, and the same bounds", async () => {
    const [one, two] = [
      mkdtempSync(path.join(os.tmpdir(), "git-dirs-")),
      mkdtempSync(path.join(os.tmpdir(), "git-dirs-")),
    ];
    for (let index = 0; index < 400; index += 1) mkdirSync(path.join(one, `f${index}`, "g"), { recursive: true });
    gitDir(path.join(one, "f7", "g", ".git"));
    gitDir(path.join(two, "bare"));
    const bounds = { maxRepositories: 10, maxFolders: 10_000 };
    const found = await findGitDirsAsync([one, two], bounds);
    expect(found).toEqual(findGitDirs([one, two], bounds));
    expect(found.map((entry) => entry.dir)).toEqual([path.join(one, "f7", "g", ".git"), path.join(two, "bare")]);
    await expect(findGitDirsAsync([one], { maxRepositories: 10, maxFolders: 50 })).rejects.toThrow(RepositoryScanError);
  });
});
