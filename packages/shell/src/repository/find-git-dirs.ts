// Every folder git would take as a repository (a `.git` folder, a bare repository, a submodule's or a linked
// worktree's git folder) under the folders a command can reach, found by a bounded walk that follows no symlink.
import { type Dirent, readdirSync } from "node:fs";
import path from "node:path";
import { RepositoryScanError } from "../errors/repository-scan-error.js";

/** A git folder and what in it git reads: its configuration files and its hooks folder. */
export interface FoundGitDir {
  /** Host path of the git folder. */
  dir: string;
  /** Names present among `config` and `config.worktree`. */
  configFiles: string[];
  /** A real `hooks` folder is there. */
  hooks: boolean;
}

/** Bounds of the walk. */
export interface GitDirScanBounds {
  maxRepositories: number;
  maxFolders: number;
}

/**
 * A folder git may read a configuration from: a git folder by git's own test (setup.c is_git_directory: HEAD, and
 * objects/ + refs/ or a commondir file), or a folder a linked worktree's `commondir` may name (objects/ + refs/, no
 * HEAD needed there; git reads that folder's `config` and `hooks`). Any entry type counts.
 */
function isGitDir(names: ReadonlySet<string>): boolean {
  return (names.has("objects") && names.has("refs")) || (names.has("HEAD") && names.has("commondir"));
}

function readFolder(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // unreadable here is unreadable in the sandbox too (same user, no capabilities)
  }
}

/**
 * The git folders under each root (the roots included), breadth first.
 * @throws RepositoryScanError past `maxFolders` folders or `maxRepositories` git folders (the caller fails closed)
 */
export function findGitDirs(roots: readonly string[], bounds: GitDirScanBounds): FoundGitDir[] {
  const found: FoundGitDir[] = [];
  let folders = 0;
  for (const root of roots) {
    const queue = [root];
    for (let head = 0; head < queue.length; head += 1) {
      const dir = queue[head] as string;
      folders += 1;
      if (folders > bounds.maxFolders)
        throw new RepositoryScanError({
          root,
          message: `the workspace and skill folder hold more than ${bounds.maxFolders} folders, too many to find every git repository in before the command runs (raise bubblewrap.repository.maxFolders, or remove folders)`,
        });
      const entries = readFolder(dir);
      const names = new Set(entries.map((entry) => entry.name));
      if (isGitDir(names)) {
        found.push({
          dir,
          configFiles: ["config", "config.worktree"].filter((name) => names.has(name)),
          hooks: entries.some((entry) => entry.name === "hooks" && entry.isDirectory()),
        });
        if (found.length > bounds.maxRepositories)
          throw new RepositoryScanError({
            root,
            message: `the workspace and skill folder hold more than ${bounds.maxRepositories} git repositories (raise bubblewrap.repository.maxRepositories, or remove some)`,
          });
      }
      for (const entry of entries) if (entry.isDirectory()) queue.push(path.join(dir, entry.name));
    }
  }
  return found;
}
