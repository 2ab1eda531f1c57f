import { constants } from "node:fs";
import { rmdir, type FileHandle } from "node:fs/promises";
import { folderOf, openAt, O_NONBLOCK } from "./confined-open-at.js";
import { errorCode, fail, refusalOf, stripAt } from "./confined-refusal.js";
import type { ConfinedFailure } from "./confined-types.js";
import { type ConfinedRoot, splitConfinedPath, walkFolders } from "./confined-walk.js";

// Writing inside a confined folder: missing folders created name by name, never through a symlink; the file opened
// without truncation, checked to be a regular file with one name, then replaced.

/**
 * Writes a regular file, creating missing folders on the way (never through a symlink). An existing regular file is
 * replaced; an existing symlink, folder or FIFO is refused.
 */
export async function confinedWriteFile(
  root: ConfinedRoot,
  relative: string,
  content: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<{ ok: true; path: string } | ConfinedFailure> {
  const parts = splitConfinedPath(relative);
  if (!parts.ok) return parts;
  const names = parts.names;
  const last = names.at(-1);
  if (last === undefined) return fail("invalid-path", relative, `'${relative}' names the folder itself, not a file`);
  const folder = await walkFolders(root, relative, names.slice(0, -1), true);
  if (!folder.ok) return stripAt(folder);
  let handle: FileHandle;
  try {
    // no O_TRUNC before the type check: a FIFO or device must not be touched; O_NONBLOCK keeps a FIFO from blocking
    handle = await openAt(folder, last, constants.O_WRONLY | constants.O_CREAT | O_NONBLOCK, options.mode ?? 0o644);
  } catch (error) {
    return refusalOf(error, relative, last);
  } finally {
    if (folder.owned) await folder.handle.close();
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return fail("not-a-file", relative, `'${relative}' exists and is not a regular file`);
    if (stats.nlink > 1) return fail("not-a-file", relative, `'${relative}' is a hard link to another file`);
    await handle.truncate(0);
    await handle.writeFile(content);
    return { ok: true, path: names.join("/") };
  } catch (error) {
    return fail("io-error", relative, `'${relative}': ${(error as Error).message}`);
  } finally {
    await handle.close();
  }
}

/** Creates a folder (and missing parents) without following symlinks. */
export async function confinedMakeFolder(
  root: ConfinedRoot,
  relative: string,
): Promise<{ ok: true; path: string } | ConfinedFailure> {
  const parts = splitConfinedPath(relative);
  if (!parts.ok) return parts;
  const folder = await walkFolders(root, relative, parts.names, true);
  if (!folder.ok) return stripAt(folder);
  if (folder.owned) await folder.handle.close();
  return { ok: true, path: parts.names.join("/") };
}

/**
 * Removes a folder if it is empty: its parent is reached without following symlinks and `rmdir` runs on the name
 * inside the parent's descriptor, so a folder swapped for a symlink meanwhile is refused (`rmdir` never follows the
 * last name) and one that gained an entry stays (`exists`).
 */
export async function confinedRemoveEmptyFolder(
  root: ConfinedRoot,
  relative: string,
): Promise<{ ok: true; path: string } | ConfinedFailure> {
  const parts = splitConfinedPath(relative);
  if (!parts.ok) return parts;
  const last = parts.names.at(-1);
  if (last === undefined) return fail("invalid-path", relative, `'${relative}' is the folder itself`);
  const folder = await walkFolders(root, relative, parts.names.slice(0, -1), false);
  if (!folder.ok) return stripAt(folder);
  try {
    await rmdir(`${folderOf(folder.handle, folder.path)}/${last}`);
    return { ok: true, path: parts.names.join("/") };
  } catch (error) {
    if (errorCode(error) === "ENOTEMPTY" || errorCode(error) === "EEXIST")
      return fail("exists", relative, `'${relative}' is not empty`);
    return refusalOf(error, relative, last);
  } finally {
    if (folder.owned) await folder.handle.close();
  }
}
