import { constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { openAt, O_NONBLOCK } from "./confined-open-at.js";
import { fail, refusalOf, stripAt } from "./confined-refusal.js";
import type { ConfinedFailure, ConfinedFileRead, ConfinedReadOptions } from "./confined-types.js";
import { type ConfinedRoot, linkInside, splitConfinedPath, walkFolders } from "./confined-walk.js";

// Reading a regular file inside a confined folder: opened name by name without following links (or following only
// links that stay inside, when asked), its type and size checked on the opened descriptor, read with a cap.

const READ_CHUNK = 64 * 1024;

/** Reads a regular file (never a symlink, FIFO, device or folder), size-capped. */
export async function confinedReadFile(
  root: ConfinedRoot,
  relative: string,
  options: ConfinedReadOptions,
): Promise<ConfinedFileRead | ConfinedFailure> {
  const opened = await openFileForRead(root, relative, options.followInsideLinks ?? 0);
  if (!opened.ok) return opened;
  try {
    return await readOpenedFile(opened.handle, relative, opened.names, options);
  } finally {
    await opened.handle.close();
  }
}

/** Opens the file, following at most `hops` symlinks that stay inside the folder. */
async function openFileForRead(
  root: ConfinedRoot,
  relative: string,
  hops: number,
): Promise<{ ok: true; handle: FileHandle; names: string[] } | ConfinedFailure> {
  const parts = splitConfinedPath(relative);
  if (!parts.ok) return parts;
  let names = parts.names;
  for (;;) {
    const last = names.at(-1);
    if (last === undefined) return fail("not-a-file", relative, `'${relative}' is the folder itself, not a file`);
    const folder = await walkFolders(root, relative, names.slice(0, -1), false);
    let failure: ConfinedFailure & { at?: number };
    if (!folder.ok) failure = folder;
    else {
      try {
        // O_NONBLOCK: a FIFO opens at once instead of waiting for a writer, and is then refused by its type
        const handle = await openAt(folder, last, constants.O_RDONLY | O_NONBLOCK);
        return { ok: true, handle, names };
      } catch (error) {
        failure = { ...refusalOf(error, relative, last), at: names.length - 1 };
      } finally {
        if (folder.owned) await folder.handle.close();
      }
    }
    if (failure.reason !== "symlink" || hops <= 0 || failure.at === undefined) return stripAt(failure);
    hops -= 1;
    const next = await linkInside(root, names, failure.at);
    if (next === undefined)
      return fail("symlink", relative, `'${relative}' goes through a symbolic link leading outside the folder`);
    names = next;
  }
}

/** Checks the opened file's type, links and size on its descriptor, then reads it (or its head) within the cap. */
async function readOpenedFile(
  handle: FileHandle,
  relative: string,
  names: readonly string[],
  options: ConfinedReadOptions,
): Promise<ConfinedFileRead | ConfinedFailure> {
  const stats = await handle.stat();
  if (!stats.isFile()) {
    const what = stats.isDirectory() ? "a folder" : "not a regular file";
    return fail("not-a-file", relative, `'${relative}' is ${what}`);
  }
  if (options.refuseHardLinks && stats.nlink > 1)
    return fail("not-a-file", relative, `'${relative}' is a hard link (the same file has another name)`);
  if (stats.size > options.maxBytes) {
    return fail("too-large", relative, `'${relative}' is ${stats.size} bytes, over the ${options.maxBytes}-byte limit`);
  }
  const limit = options.headBytes === undefined ? options.maxBytes : Math.min(options.headBytes, options.maxBytes);
  const { chunks, total } = await readUpTo(handle, limit + 1, options.offset ?? 0);
  if (options.headBytes === undefined && total > options.maxBytes) {
    return fail("too-large", relative, `'${relative}' grew over the ${options.maxBytes}-byte limit while being read`);
  }
  const bytes = Buffer.concat(chunks, total).subarray(0, limit);
  return {
    ok: true,
    path: names.join("/"),
    bytes,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    dev: stats.dev,
    ino: stats.ino,
  };
}

/** Reads from byte `start` of the file until end of file or `most` bytes. */
async function readUpTo(handle: FileHandle, most: number, start: number): Promise<{ chunks: Buffer[]; total: number }> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const want = Math.min(READ_CHUNK, most - total);
    if (want <= 0) break;
    const buffer = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(buffer, 0, want, start + total);
    if (bytesRead === 0) break;
    chunks.push(bytesRead === want ? buffer : buffer.subarray(0, bytesRead));
    total += bytesRead;
  }
  return { chunks, total };
}
