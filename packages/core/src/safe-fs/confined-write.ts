import { constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { openAt, O_NONBLOCK } from "./confined-open-at.js";
import { fail, refusalOf, stripAt } from "./confined-refusal.js";
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
