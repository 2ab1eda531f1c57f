import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, type BigIntStats } from "node:fs";
import { mkdir, open, rename, unlink } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { confinedFolderIsRaceFree } from "../safe-fs/confined-folder.js";

// Cache files (registry snapshots, search-index files) are derived data that decide what a skill may do (its
// `allowed-tools`) and how it ranks, so they are trusted only when this user wrote them: the cache folder and the file
// are owned by the current user (or root) and writable by nobody else, checked with fstat on the opened descriptors (the file is
// opened from the folder's descriptor without following a symlink). Anything else is ignored and the skills are loaded
// from their SKILL.md files. Where the platform has no user ids (Windows) the ownership checks are skipped.

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;

/** Why a cache file could not be opened: missing (nothing to say), untrusted (someone else could have written it), unreadable. */
export type CacheOpenFailure = { ok: false; kind: "missing" | "untrusted" | "unreadable"; reason: string };

/**
 * Why a file or folder (fstat of its descriptor) is not trusted as this user's cache, or undefined when it is: owned by
 * someone else than this user or root, or writable by its group or by other users.
 */
export function untrustedCacheReason(
  stats: { uid: number | bigint; mode: number | bigint },
  what: "file" | "folder",
): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const owner = Number(stats.uid);
  const mode = Number(stats.mode) & 0o777;
  // root can write anywhere anyway: a file it owns (copied into a container image, say) is no weaker than the user's.
  if (owner !== uid && owner !== 0) return `the ${what} belongs to uid ${owner}, not to this user (uid ${uid}) or root`;
  if (mode & 0o022)
    return `the ${what} is writable by ${mode & 0o002 ? "other users" : "its group"} (mode ${mode.toString(8)})`;
  return undefined;
}

function errnoCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/** Opens a cache folder and checks it is this user's (fstat of its descriptor); returns the descriptor. Sync. */
function openTrustedFolderSync(folder: string): { ok: true; fd: number } | CacheOpenFailure {
  let fd: number;
  try {
    fd = openSync(folder, constants.O_RDONLY | O_DIRECTORY);
  } catch (error) {
    const code = errnoCode(error);
    return code === "ENOENT"
      ? { ok: false, kind: "missing", reason: "no cache folder" }
      : { ok: false, kind: "unreadable", reason: `cannot open the cache folder (${code})` };
  }
  const stats = fstatSync(fd);
  const untrusted = stats.isDirectory() ? untrustedCacheReason(stats, "folder") : "the cache folder is not a folder";
  if (untrusted === undefined) return { ok: true, fd };
  closeSync(fd);
  return { ok: false, kind: "untrusted", reason: untrusted };
}

/**
 * Opens a cache file for reading only when this user wrote it: the folder's descriptor is opened and checked first,
 * the file is opened from it with O_NOFOLLOW|O_NONBLOCK, then it must be a regular file owned by this user and
 * writable by nobody else. Returns the open descriptor (the caller closes it) with its fstat, or why not. Never throws.
 */
export function openTrustedCacheFile(path: string): { ok: true; fd: number; stats: BigIntStats } | CacheOpenFailure {
  const folder = openTrustedFolderSync(dirname(path));
  if (!folder.ok) return folder.kind === "missing" ? { ...folder, reason: "no such file" } : folder;
  let fd: number;
  try {
    const target = confinedFolderIsRaceFree() ? `/proc/self/fd/${folder.fd}/${basename(path)}` : path;
    fd = openSync(target, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ENOENT") return { ok: false, kind: "missing", reason: "no such file" };
    if (code === "ELOOP") return { ok: false, kind: "untrusted", reason: "the file is a symbolic link" };
    return { ok: false, kind: "unreadable", reason: `cannot read (${code})` };
  } finally {
    closeSync(folder.fd);
  }
  try {
    const stats = fstatSync(fd, { bigint: true });
    if (!stats.isFile()) {
      closeSync(fd);
      return { ok: false, kind: "unreadable", reason: "not a regular file" };
    }
    const untrusted = untrustedCacheReason(stats, "file");
    if (untrusted !== undefined) {
      closeSync(fd);
      return { ok: false, kind: "untrusted", reason: untrusted };
    }
    return { ok: true, fd, stats };
  } catch (error) {
    closeSync(fd);
    return { ok: false, kind: "unreadable", reason: `cannot read (${errnoCode(error)})` };
  }
}

/** A cache write refused because the folder is not this user's alone (`code` "EUNTRUSTED"). */
export class UntrustedCacheFolderError extends Error {
  readonly code = "EUNTRUSTED";
  constructor(folder: string, reason: string) {
    super(`cache folder ${folder} is not trusted: ${reason}`);
    this.name = "UntrustedCacheFolderError";
  }
}

/**
 * Writes a cache file atomically: the folder is created (mode 0700) when missing and must be this user's alone, the
 * text goes to a new temporary file created exclusively in it (never through a symlink), which is then renamed over the
 * target, so a reader never sees half a file and two writers never mix. Throws on I/O errors and on an untrusted
 * folder (`UntrustedCacheFolderError`). Returns the bytes written.
 */
export async function writeCacheFileAtomic(path: string, text: string | Uint8Array): Promise<number> {
  const folder = dirname(path);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const opened = openTrustedFolderSync(folder);
  if (!opened.ok) throw new UntrustedCacheFolderError(folder, opened.reason);
  const base = confinedFolderIsRaceFree() ? `/proc/self/fd/${opened.fd}` : folder;
  const name = basename(path);
  const temp = `${base}/${name}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o644);
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    await rename(temp, `${base}/${name}`);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  } finally {
    closeSync(opened.fd);
  }
  return typeof text === "string" ? Buffer.byteLength(text) : text.byteLength;
}
