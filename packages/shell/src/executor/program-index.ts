// Finding every name a program has beneath a folder: files and symlinks by name, and hard links by inode. Folders that
// do not change while the process runs (/usr, the executor's read-only paths) are walked once and cached.
import { lstatSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** A host folder the sandbox shows, where it shows it, and whether it can be indexed once for the process. */
export interface VisibleFolder {
  host: string;
  sandbox: string;
  /** True for folders that do not change while the process runs (/usr): walked once, then cached. */
  stable: boolean;
}

const nameIndexes = new Map<string, Map<string, string[]>>();
const inodeIndexes = new Map<string, Map<string, string[]>>();

/** Every entry beneath `root` (not following symlinked folders), as [path, entry]. */
function* walk(root: string): Generator<[string, import("node:fs").Dirent]> {
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable here: the sandbox cannot read it either
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else yield [full, entry];
    }
  }
}

function nameIndex(root: string): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const [full, entry] of walk(root)) {
    if (!entry.isFile() && !entry.isSymbolicLink()) continue;
    const list = index.get(entry.name);
    if (list) list.push(full);
    else index.set(entry.name, [full]);
  }
  return index;
}

/** Regular files with more than one link beneath `root`, by `dev:ino`. */
function inodeIndex(root: string): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const [full, entry] of walk(root)) {
    if (!entry.isFile()) continue;
    try {
      const stat = lstatSync(full);
      if (stat.nlink < 2) continue;
      const key = `${stat.dev}:${stat.ino}`;
      const list = index.get(key);
      if (list) list.push(full);
      else index.set(key, [full]);
    } catch {
      // gone meanwhile
    }
  }
  return index;
}

function cached<T>(cache: Map<string, T>, folder: VisibleFolder, build: (root: string) => T): T {
  if (!folder.stable) return build(folder.host);
  let index = cache.get(folder.host);
  if (!index) {
    index = build(folder.host);
    cache.set(folder.host, index);
  }
  return index;
}

/** Host paths of the files and symlinks beneath `folder` whose name is one of `names`. */
export function filesNamed(folder: VisibleFolder, names: ReadonlySet<string>): string[] {
  const index = cached(nameIndexes, folder, nameIndex);
  return [...names].flatMap((name) => index.get(name) ?? []);
}

/** Host paths beneath `folder` that are hard links of `file` (empty when it has a single link). */
export function hardLinksOf(folder: VisibleFolder, file: string): string[] {
  const stat = statSync(file);
  if (stat.nlink < 2) return [];
  return cached(inodeIndexes, folder, inodeIndex).get(`${stat.dev}:${stat.ino}`) ?? [];
}
