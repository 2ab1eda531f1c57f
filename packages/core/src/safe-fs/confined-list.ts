import { constants, type Dirent } from "node:fs";
import { lstat, readdir, type FileHandle } from "node:fs/promises";
import { folderOf, openAt, O_DIRECTORY, type OpenFolder } from "./confined-open-at.js";
import { stripAt } from "./confined-refusal.js";
import type { ConfinedEntry, ConfinedFailure, ConfinedListOptions } from "./confined-types.js";
import { type ConfinedRoot, splitConfinedPath, walkFolders } from "./confined-walk.js";

// Listing inside a confined folder: each sub-folder entered by opening it from its parent's descriptor without
// following links (a symlink is reported, never entered), entries in name order, bounded in count and depth.

/** Lists a sub-folder recursively without following symlinks (they are reported as `symlink`). */
export async function confinedList(
  root: ConfinedRoot,
  relative: string,
  options: ConfinedListOptions,
): Promise<{ ok: true; entries: ConfinedEntry[]; truncated: boolean } | ConfinedFailure> {
  const parts = splitConfinedPath(relative);
  if (!parts.ok) return parts;
  const start = await walkFolders(root, relative, parts.names, false);
  if (!start.ok) return stripAt(start);
  const listing: Listing = { entries: [], truncated: false, options, maxDepth: options.maxDepth ?? 16 };
  try {
    await visitFolder(listing, start, "", 0);
  } finally {
    if (start.owned) await start.handle.close();
  }
  return { ok: true, entries: listing.entries, truncated: listing.truncated };
}

/** A folder entry met while listing: its name in the folder and its path relative to the listed root. */
interface FolderEntry {
  name: string;
  path: string;
}

/** What one listing has found so far, and its bounds. */
interface Listing {
  entries: ConfinedEntry[];
  truncated: boolean;
  options: ConfinedListOptions;
  maxDepth: number;
}

async function visitFolder(listing: Listing, folder: OpenFolder, prefix: string, depth: number): Promise<void> {
  let dirents: Dirent[];
  try {
    dirents = await readdir(folderOf(folder.handle, folder.path), { withFileTypes: true });
  } catch {
    return;
  }
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const dirent of dirents) {
    if (listing.entries.length >= listing.options.maxEntries) {
      listing.truncated = true;
      return;
    }
    const childPath = prefix === "" ? dirent.name : `${prefix}/${dirent.name}`;
    if (listing.options.skip?.(dirent.name, childPath)) continue;
    if (dirent.isSymbolicLink()) listing.entries.push({ path: childPath, kind: "symlink" });
    else if (dirent.isFile()) await addFile(listing, folder, { name: dirent.name, path: childPath });
    else if (dirent.isDirectory()) {
      listing.entries.push({ path: childPath, kind: "folder" });
      if (depth < listing.maxDepth) await enterFolder(listing, folder, { name: dirent.name, path: childPath }, depth);
    } else listing.entries.push({ path: childPath, kind: "other" });
  }
}

/** Records a file with its lstat size and time (what was there by then: it may have been swapped since readdir). */
async function addFile(listing: Listing, folder: OpenFolder, { name, path: childPath }: FolderEntry): Promise<void> {
  const stats = await lstat(`${folderOf(folder.handle, folder.path)}/${name}`).catch(() => undefined);
  if (stats?.isFile())
    listing.entries.push({
      path: childPath,
      kind: "file",
      size: stats.size,
      mtimeMs: stats.mtimeMs,
      ...(stats.nlink > 1 ? { links: stats.nlink } : {}),
    });
  else if (stats) listing.entries.push({ path: childPath, kind: stats.isSymbolicLink() ? "symlink" : "other" });
}

/** Opens a sub-folder from its parent's descriptor without following a link, and lists it. */
async function enterFolder(
  listing: Listing,
  folder: OpenFolder,
  { name, path: childPath }: FolderEntry,
  depth: number,
): Promise<void> {
  let child: FileHandle;
  try {
    child = await openAt(folder, name, constants.O_RDONLY | O_DIRECTORY);
  } catch {
    return; // swapped for a symlink or removed since readdir: not descended
  }
  try {
    await visitFolder(listing, { handle: child, path: `${folder.path}/${name}` }, childPath, depth + 1);
  } finally {
    await child.close();
  }
}
