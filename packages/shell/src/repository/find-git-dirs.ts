// Every folder git would take as a repository (a `.git` folder, a bare repository, a submodule's or a linked
// worktree's git folder) under the folders a command can reach, found by a bounded walk that follows no symlink.
import { type Dirent, readdirSync } from "node:fs";
import path from "node:path";
import { threadCpuMicros } from "../command/thread-cpu-time.js";
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

/** Most milliseconds of this thread's CPU one slice of {@link findGitDirsAsync} runs before it yields. */
export const SCAN_SLICE_MS = 5;

/** The walk's state: a breadth-first queue per root, resumable in slices. */
class GitDirScan {
  readonly found: FoundGitDir[] = [];
  private folders = 0;
  private rootIndex = -1;
  private queue: string[] = [];
  private head = 0;

  constructor(
    private readonly roots: readonly string[],
    private readonly bounds: GitDirScanBounds,
  ) {}

  /** Visits folders until the walk is done (true) or `more()` says to stop for now (false). */
  step(more: () => boolean): boolean {
    for (;;) {
      if (this.head >= this.queue.length) {
        this.rootIndex += 1;
        if (this.rootIndex >= this.roots.length) return true;
        this.queue = [this.roots[this.rootIndex] as string];
        this.head = 0;
      }
      this.visit(this.queue[this.head] as string);
      this.head += 1;
      if (!more()) return false;
    }
  }

  private visit(dir: string): void {
    const root = this.roots[this.rootIndex] as string;
    this.folders += 1;
    if (this.folders > this.bounds.maxFolders)
      throw new RepositoryScanError({
        root,
        message: `the workspace and skill folder hold more than ${this.bounds.maxFolders} folders, too many to find every git repository in before the command runs (raise bubblewrap.repository.maxFolders, or remove folders)`,
      });
    const entries = readFolder(dir);
    const names = new Set(entries.map((entry) => entry.name));
    if (isGitDir(names)) {
      this.found.push({
        dir,
        configFiles: ["config", "config.worktree"].filter((name) => names.has(name)),
        hooks: entries.some((entry) => entry.name === "hooks" && entry.isDirectory()),
      });
      if (this.found.length > this.bounds.maxRepositories)
        throw new RepositoryScanError({
          root,
          message: `the workspace and skill folder hold more than ${this.bounds.maxRepositories} git repositories (raise bubblewrap.repository.maxRepositories, or remove some)`,
        });
    }
    for (const entry of entries) if (entry.isDirectory()) this.queue.push(path.join(dir, entry.name));
  }
}

/**
 * The git folders under each root (the roots included), breadth first, in one synchronous walk.
 * @throws RepositoryScanError past `maxFolders` folders or `maxRepositories` git folders (the caller fails closed)
 */
export function findGitDirs(roots: readonly string[], bounds: GitDirScanBounds): FoundGitDir[] {
  const scan = new GitDirScan(roots, bounds);
  scan.step(() => true);
  return scan.found;
}

/**
 * {@link findGitDirs} in slices of at most {@link SCAN_SLICE_MS} ms of this thread's CPU, yielding to the event loop
 * between them (10,000 folders cost about 140 ms in all on a loaded machine: no slice holds the loop for long).
 * @throws RepositoryScanError as findGitDirs does
 */
export async function findGitDirsAsync(roots: readonly string[], bounds: GitDirScanBounds): Promise<FoundGitDir[]> {
  const scan = new GitDirScan(roots, bounds);
  for (;;) {
    const started = threadCpuMicros();
    if (scan.step(() => threadCpuMicros() - started < SCAN_SLICE_MS * 1000)) return scan.found;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
