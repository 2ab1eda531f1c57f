import { lstatSync, realpathSync, statSync, type BigIntStats } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import type { SkillDiagnostic } from "../skill/skill-types.js";
import { identityFromBigStats } from "../skill/skill-file-identity.js";
import { createLimiter } from "../internal/concurrency-limit.js";
import type { DiskSkillCandidate } from "./skill-source.js";
import {
  decodeFolderListings,
  encodeFolderListings,
  type FolderStamp,
  type StoredFolderListings,
} from "./folder-listings-codec.js";
import { isSpecialPath, specialDevices } from "./special-file-systems.js";
import { RACY_WINDOW_NS } from "./racy-window.js";

/** Options for walking a folder tree for skills. */
export interface WalkOptions {
  /** Folder levels below the root to descend. @default 6 */
  maxDepth: number;
  /** Folder names never entered. @default ["node_modules", ".git"] plus every dot-folder below the root */
  skip: ReadonlySet<string>;
  /** Most skills one walk returns; the rest are left out with a `source-limit` warning. @default 10000 */
  maxSkills: number;
  /** Most folders one walk visits (and a watcher then watches). @default 50000 */
  maxFolders: number;
  /** Most symlinked folders one walk follows. @default 100 */
  maxLinks: number;
}

/** A folder's listing, valid while the folder's stat is unchanged. */
interface CachedFolder {
  stamp: FolderStamp;
  skillFileName: "SKILL.md" | "skill.md" | undefined;
  subfolders: string[];
  /** Listed within the racy window of the folder's last change: list again rather than trust the stat. */
  racy: boolean;
  /** Subfolders that are symlinks (known when listed by this process; a listing from a snapshot does not say). */
  links?: ReadonlySet<string>;
}

/**
 * Walks a folder tree for SKILL.md files. Keeps a per-folder cache keyed by the folder's mtime, so a repeat walk
 * stats every folder but lists only folders whose entries changed (a reload does not rescan the world).
 */
export class SkillFolderWalker {
  private cache = new Map<string, CachedFolder>();
  private walks = 0;

  constructor(
    private readonly root: string,
    private readonly options: WalkOptions,
  ) {}

  /**
   * Finds every skill folder under the root. Folders are visited concurrently (a bounded number of file-system calls
   * in flight); a symlink back to an ancestor is reported as a cycle and not followed, and a folder reached through
   * several links counts once, at its first path in sorted order, so the result does not depend on timing.
   */
  async walk(): Promise<{ candidates: DiskSkillCandidate[]; diagnostics: SkillDiagnostic[] }> {
    // Each candidate with the device:inode key of its folder (for folders reached through several links).
    const found: Array<{ key: string; candidate: DiskSkillCandidate }> = [];
    const diagnostics: SkillDiagnostic[] = [];
    const nextCache = new Map<string, CachedFolder>();
    const io = createLimiter(64);
    // The first walk (a cold start, nothing else to serve yet) stats synchronously: from the page cache a stat takes
    // microseconds, and a round trip through libuv's thread pool costs more than the call itself. Reloads stay async.
    const firstWalk = this.walks++ === 0;
    const bounds = this.walkBounds(diagnostics);
    if (bounds === undefined) return { candidates: [], diagnostics };

    // Each step returns a promise only when it waits for something (a listing, an async stat, subfolders that did): a
    // cold start whose listings all come from the snapshot walks the whole tree in one synchronous pass.
    type Step = Promise<void> | undefined;
    const unreadable = (folder: string, depth: number, error: unknown): void => {
      diagnostics.push(
        depth > 0 && isSymbolicLink(folder)
          ? folderDiagnostic(
              "source-dangling-link",
              folder,
              `${folder} is a symbolic link to a folder that does not exist; skipped`,
              "warning",
            )
          : folderDiagnostic("source-unreadable", folder, `cannot read folder ${folder}: ${(error as Error).message}`),
      );
    };
    const visit = (folder: string, depth: number, ancestors: ReadonlySet<string>): Step => {
      if (bounds.stopped("folders", folder)) return undefined;
      if (!firstWalk)
        return io(() => stat(folder, { bigint: true })).then(
          (folderStat) => enter(folder, depth, ancestors, folderStat),
          (error: unknown) => unreadable(folder, depth, error),
        );
      let folderStat;
      try {
        folderStat = statSync(folder, { bigint: true });
      } catch (error) {
        unreadable(folder, depth, error);
        return undefined;
      }
      return enter(folder, depth, ancestors, folderStat);
    };
    const enter = (folder: string, depth: number, ancestors: ReadonlySet<string>, folderStat: BigIntStats): Step => {
      if (!folderStat.isDirectory()) return undefined;
      if (specialDevices().has(folderStat.dev)) {
        diagnostics.push(specialFolderDiagnostic(folder));
        return undefined;
      }
      const key = `${folderStat.dev}:${folderStat.ino}`;
      if (ancestors.has(key) || (depth > 0 && bounds.aboveRoot.has(key))) {
        diagnostics.push(
          folderDiagnostic(
            "source-cycle",
            folder,
            `${folder} links back to a folder above it (symlink cycle); skipped`,
            "warning",
          ),
        );
        return undefined;
      }
      const stamp: FolderStamp = {
        ino: Number(folderStat.ino),
        mtimeNs: folderStat.mtimeNs.toString(),
        ctimeNs: folderStat.ctimeNs.toString(),
      };
      const cached = this.cache.get(folder);
      if (cached && !cached.racy && sameStamp(cached.stamp, stamp))
        return withListing({ folder, depth, ancestors, key }, cached);
      const listedAt = BigInt(Date.now()) * 1_000_000n;
      return io(() => this.list(folder, stamp, depth === 0, diagnostics)).then((entry) => {
        const changed = folderStat.mtimeNs > folderStat.ctimeNs ? folderStat.mtimeNs : folderStat.ctimeNs;
        entry.racy = listedAt - changed < RACY_WINDOW_NS;
        return withListing({ folder, depth, ancestors, key }, entry);
      });
    };
    type Place = { folder: string; depth: number; ancestors: ReadonlySet<string>; key: string };
    const skillFound = (place: Place, file: string, fileStat: BigIntStats): void => {
      const { key, folder } = place;
      found.push({
        key,
        candidate: { kind: "disk", dir: folder, file, root: folder, identity: identityFromBigStats(fileStat) },
      });
    };
    // A dangling SKILL.md symlink: the loader reports it as skill-md-missing when asked to validate this folder.
    const danglingSkill = (file: string): void => {
      diagnostics.push(
        folderDiagnostic("skill-md-missing", file, `${file} is a dangling symlink; skill skipped`, "warning"),
      );
    };
    const withListing = (place: Place, entry: CachedFolder): Step => {
      nextCache.set(place.folder, entry);
      if (!entry.skillFileName || bounds.stopped("skills", place.folder)) return descend(place, entry);
      const file = childPath(place.folder, entry.skillFileName);
      if (!firstWalk)
        return io(() => stat(file, { bigint: true }))
          .then(
            (fileStat) => skillFound(place, file, fileStat),
            () => danglingSkill(file),
          )
          .then(() => descend(place, entry));
      try {
        skillFound(place, file, statSync(file, { bigint: true }));
      } catch {
        danglingSkill(file);
      }
      return descend(place, entry);
    };
    const descend = (place: Place, entry: CachedFolder): Step => {
      const { folder, depth } = place;
      if (depth >= this.options.maxDepth) {
        if (entry.subfolders.length > 0) {
          diagnostics.push(
            folderDiagnostic(
              "source-depth-limit",
              folder,
              `${folder}: not descending further than ${this.options.maxDepth} levels`,
              "warning",
            ),
          );
        }
        return undefined;
      }
      if (entry.subfolders.length === 0) return undefined;
      const chain = new Set(place.ancestors).add(place.key);
      const links = entry.links;
      const pending: Array<Promise<void>> = [];
      for (const sub of entry.subfolders) {
        if (links?.has(sub) && bounds.stopped("links", sub)) continue;
        const step = visit(sub, depth + 1, chain);
        if (step) pending.push(step);
      }
      return pending.length > 0 ? Promise.all(pending).then(() => undefined) : undefined;
    };

    await visit(this.root, 0, new Set());
    this.cache = nextCache;
    found.sort((a, b) => (a.candidate.dir < b.candidate.dir ? -1 : a.candidate.dir > b.candidate.dir ? 1 : 0));
    const firstPath = new Map<string, string>();
    const candidates: DiskSkillCandidate[] = [];
    for (const { key, candidate } of found) {
      const first = firstPath.get(key);
      if (first !== undefined) {
        diagnostics.push(
          folderDiagnostic(
            "source-duplicate-link",
            candidate.dir,
            `${candidate.dir} is the same folder as ${first} (reached through a symlink); counted once`,
            "warning",
          ),
        );
        continue;
      }
      firstPath.set(key, candidate.dir);
      candidates.push(candidate);
    }
    diagnostics.sort((a, b) =>
      a.path < b.path ? -1 : a.path > b.path ? 1 : a.code < b.code ? -1 : a.code > b.code ? 1 : 0,
    );
    return { candidates, diagnostics };
  }

  /**
   * The limits of one walk, counted as it goes: `stopped(kind)` counts one more folder, skill or followed link and says
   * whether that one is over its limit (reported once per kind). Also the folders at and above the root (by device and
   * inode), which a link below the root must not lead back to. Undefined (with a diagnostic) when the root itself is
   * `/proc`, `/sys` or `/dev`.
   */
  private walkBounds(
    diagnostics: SkillDiagnostic[],
  ):
    | { aboveRoot: ReadonlySet<string>; stopped: (kind: "folders" | "skills" | "links", path: string) => boolean }
    | undefined {
    let real: string;
    try {
      real = realpathSync(this.root);
    } catch {
      real = this.root; // missing or unreadable: the walk reports it
    }
    if (isSpecialPath(real)) {
      diagnostics.push(specialFolderDiagnostic(this.root));
      return undefined;
    }
    const aboveRoot = new Set<string>();
    for (let dir = real; ; dir = dirname(dir)) {
      try {
        const stats = statSync(dir, { bigint: true });
        aboveRoot.add(`${stats.dev}:${stats.ino}`);
      } catch {
        // unreadable ancestor: nothing to compare with
      }
      if (dirname(dir) === dir) break;
    }
    const limits = { folders: this.options.maxFolders, skills: this.options.maxSkills, links: this.options.maxLinks };
    const counts = { folders: 0, skills: 0, links: 0 };
    const nouns = { folders: "folders visited", skills: "skills", links: "symlinked folders followed" };
    const stopped = (kind: "folders" | "skills" | "links", path: string): boolean => {
      counts[kind] += 1;
      if (counts[kind] <= limits[kind]) return false;
      if (counts[kind] === limits[kind] + 1)
        diagnostics.push(
          folderDiagnostic(
            "source-limit",
            this.root,
            `${this.root}: more than ${limits[kind]} ${nouns[kind]} (first left out: ${path}); the rest of the tree is not loaded`,
            "warning",
          ),
        );
      return true;
    };
    return { aboveRoot, stopped };
  }

  /** Every folder the last walk visited (the root first): what a watcher watches. */
  folders(): string[] {
    return this.cache.size === 0
      ? [this.root]
      : [this.root, ...[...this.cache.keys()].filter((folder) => folder !== this.root)];
  }

  /** The folder listings of the last walk, for a registry snapshot. */
  exportFolders(): { options: string; folders: StoredFolderListings } {
    const listings = [...this.cache].map(([folder, entry]) => ({ folder, ...entry }));
    return { options: this.optionsKey(), folders: encodeFolderListings(listings, this.root) };
  }

  private optionsKey(): string {
    // `listing`: what a stored listing holds (2: dangling folder links are kept, to be reported); older ones are relisted.
    return JSON.stringify({ listing: 2, maxDepth: this.options.maxDepth, skip: [...this.options.skip].sort() });
  }

  /**
   * Seeds the listing cache from a snapshot (before the first walk): a folder whose stat still matches is not listed
   * again. Entries are checked (names only, no separators, folders under this root); `writtenNs` is the snapshot's
   * write time, for the racy rule. Returns false (and seeds nothing) when an entry is malformed.
   */
  importFolders(state: unknown, writtenNs: bigint): boolean {
    if (typeof state !== "object" || state === null) return false;
    const { options, folders } = state as { options?: unknown; folders?: unknown };
    // Listed with other options (skip list, depth): not reusable, but not malformed either.
    if (options !== this.optionsKey()) return typeof options === "string";
    const listings = decodeFolderListings(folders, this.root);
    if (!listings) return false;
    // Racy: changed less than the window before the snapshot was written (decimal strings compared, no BigInts).
    const racyAfter = (writtenNs - RACY_WINDOW_NS).toString();
    const seeded = new Map<string, CachedFolder>();
    for (const listing of listings) {
      // The decoded listing is this call's own: completed in place and kept as the cached folder (no copy).
      listing.racy ||= decimalAfter(listing.stamp.mtimeNs, racyAfter) || decimalAfter(listing.stamp.ctimeNs, racyAfter);
      seeded.set(listing.folder, listing);
    }
    if (this.cache.size === 0) this.cache = seeded;
    return true;
  }

  private async list(
    folder: string,
    stamp: FolderStamp,
    isRoot: boolean,
    diagnostics: SkillDiagnostic[],
  ): Promise<CachedFolder> {
    let dirents;
    try {
      dirents = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      diagnostics.push(
        folderDiagnostic("source-unreadable", folder, `cannot list folder ${folder}: ${(error as Error).message}`),
      );
      return { stamp, skillFileName: undefined, subfolders: [], racy: true };
    }
    let upper = false;
    let lower = false;
    const subfolders: string[] = [];
    const links = new Set<string>();
    for (const dirent of dirents) {
      const name = dirent.name;
      if (name === "SKILL.md") upper = true;
      else if (name === "skill.md") lower = true;
      else if (dirent.isDirectory() || dirent.isSymbolicLink()) {
        if (this.options.skip.has(name) || (!isRoot && name.startsWith("."))) continue;
        const path = childPath(folder, name);
        if (dirent.isSymbolicLink()) {
          try {
            if (!(await stat(path)).isDirectory()) continue;
          } catch {
            // A link that leads nowhere: kept, so the visit reports it (source-dangling-link) on every walk.
          }
          links.add(path);
        }
        subfolders.push(path);
      }
    }
    subfolders.sort();
    return {
      stamp,
      skillFileName: upper ? "SKILL.md" : lower ? "skill.md" : undefined,
      subfolders,
      racy: false,
      ...(links.size > 0 ? { links } : {}),
    };
  }
}

/** `join(folder, name)` for an absolute, normalised folder and a plain name, without normalising again. */
function childPath(folder: string, name: string): string {
  return folder.endsWith("/") ? folder + name : `${folder}/${name}`;
}

/** True when `path` is itself a symbolic link (false when it cannot be read at all). */
function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** A diagnostic about a folder of a source rather than a skill. */
export function folderDiagnostic(
  code: string,
  path: string,
  message: string,
  severity: "error" | "warning" = "error",
): SkillDiagnostic {
  return { code, severity, message, path };
}

function specialFolderDiagnostic(folder: string): SkillDiagnostic {
  return folderDiagnostic(
    "source-special-folder",
    folder,
    `${folder} is in /proc, /sys or /dev (kernel interfaces, not skills); skipped`,
    "warning",
  );
}

function sameStamp(a: FolderStamp, b: FolderStamp): boolean {
  return a.ino === b.ino && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** `a > b` for non-negative decimal integers without leading zeros (`b` may be negative: then always true). */
function decimalAfter(a: string, b: string): boolean {
  if (b.startsWith("-")) return true;
  return a.length !== b.length ? a.length > b.length : a > b;
}
