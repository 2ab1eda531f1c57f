import { open, readlink, realpath, stat, type FileHandle } from "node:fs/promises";
import { close as closeFd, constants, fstat as fstatFd, open as openFd, read as readFd, type Stats } from "node:fs";
import { isUtf8 } from "node:buffer";
import { basename, join, resolve } from "node:path";
import { z } from "zod";
import { parseOptions } from "../errors/parse-options.js";
import { readOpenedFileCapped } from "../internal/fs-read-capped.js";
import { confinedFolderIsRaceFree } from "../safe-fs/confined-folder.js";
import { isInsideFolder } from "../safe-fs/is-inside-folder.js";
import { createDiagnostic } from "./create-diagnostic.js";
import { findSkillMd } from "./find-skill-md.js";
import { identityFromStats, type SkillFileIdentity } from "./skill-file-identity.js";
import type { SkillDiagnostic } from "./skill-types.js";

/** Default largest SKILL.md accepted: 1 MiB. */
export const DEFAULT_MAX_SKILL_MD_BYTES = 1024 * 1024;

/** Limits applied when reading a SKILL.md from disk. */
export interface ReadSkillMdOptions {
  /** Largest SKILL.md accepted, in bytes; checked with stat before reading and enforced while reading. @default 1048576 */
  maxBytes?: number;
  /** Folder the SKILL.md must resolve inside (the source root): a symlink leading out of it is refused. */
  root?: string;
}

/** A SKILL.md read from a skill folder. */
export interface SkillMdFile {
  ok: true;
  /** Absolute skill folder. */
  dir: string;
  /** Absolute path of the file read (`SKILL.md` or `skill.md` as found, symlinks not resolved). */
  file: string;
  /** The raw bytes (hashed for `Skill.hash`). */
  bytes: Buffer;
  /** The bytes decoded as UTF-8 (a BOM is kept; `parseSkillMd` handles it). */
  text: string;
  /** Identity from the fstat of the descriptor that was read. */
  identity: SkillFileIdentity;
  /** Warnings about the file itself (e.g. `skill-md-lowercase`). */
  diagnostics: SkillDiagnostic[];
}

/** A skill folder whose SKILL.md could not be read; `diagnostics` holds the error. */
export interface SkillMdUnreadable {
  ok: false;
  dir: string;
  /** The SKILL.md path when one was found. */
  file?: string;
  diagnostics: SkillDiagnostic[];
}

const bytesError = "must be a positive integer number of bytes";

/** The read options as one schema, defaults inside. */
const readSkillMdOptionsSchema = z.object({
  maxBytes: z
    .int({ error: bytesError })
    .min(1, { error: bytesError })
    .default(() => DEFAULT_MAX_SKILL_MD_BYTES),
  root: z.string({ error: "must be a folder path" }).min(1, { error: "must be a folder path" }).optional(),
});

/** Checks read options once; throws InvalidOptionsError. */
export function checkReadSkillMdOptions(options: ReadSkillMdOptions): { maxBytes: number; root: string | undefined } {
  const { maxBytes, root } = parseOptions(readSkillMdOptionsSchema, options);
  return { maxBytes, root: root === undefined ? undefined : resolve(root) };
}

/**
 * Reads the SKILL.md of one skill folder, safely: refuses a missing folder, a FIFO/socket/device/folder named
 * SKILL.md, a symlink resolving outside `root`, a file over `maxBytes` (from stat, before reading a byte) and
 * invalid UTF-8. Never blocks on a FIFO and never reads more than `maxBytes + 1` bytes.
 * @param dir The skill folder.
 */
export async function readSkillMdFile(
  dir: string,
  options: ReadSkillMdOptions = {},
): Promise<SkillMdFile | SkillMdUnreadable> {
  const { maxBytes, root } = checkReadSkillMdOptions(options);
  const folder = resolve(dir);
  const fail = (diagnostic: SkillDiagnostic, file?: string): SkillMdUnreadable =>
    file === undefined
      ? { ok: false, dir: folder, diagnostics: [diagnostic] }
      : { ok: false, dir: folder, file, diagnostics: [diagnostic] };

  let folderStats: Stats;
  try {
    folderStats = await stat(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      return fail(createDiagnostic("skill-dir-missing", { path: folder }, "path does not exist"));
    return fail(
      createDiagnostic(
        "file-unreadable",
        { path: folder },
        `cannot access the skill folder (${code ?? String(error)})`,
      ),
    );
  }
  if (!folderStats.isDirectory())
    return fail(createDiagnostic("skill-dir-not-directory", { path: folder }, "not a directory"));

  const lookup = await findSkillMd(folder);
  if (!lookup.found) {
    const detail = lookup.detail === undefined ? "" : ` (${lookup.detail})`;
    return fail(createDiagnostic("skill-md-missing", { path: folder }, `missing required file: SKILL.md${detail}`));
  }
  const { file } = lookup;
  const diagnostics: SkillDiagnostic[] = [];
  if (lookup.fileName === "skill.md")
    diagnostics.push(
      createDiagnostic("skill-md-lowercase", { path: file }, "the file is named skill.md; the spec names it SKILL.md"),
    );

  let fileStats: Stats;
  try {
    fileStats = await stat(file);
  } catch (error) {
    return fail(
      createDiagnostic(
        "file-unreadable",
        { path: file },
        `cannot stat SKILL.md (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      ),
      file,
    );
  }
  if (!fileStats.isFile())
    return fail(
      createDiagnostic(
        "not-a-regular-file",
        { path: file },
        `SKILL.md is ${describeKind(fileStats)}, not a regular file`,
      ),
      file,
    );
  // Everything from here is checked on the opened descriptor: a SKILL.md swapped for a symlink to an outside file
  // after the checks above is caught by where the descriptor really points, never read through.
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT")
      return fail(
        createDiagnostic(
          "skill-md-missing",
          { path: folder },
          "missing required file: SKILL.md (removed while being read)",
        ),
      );
    return fail(
      createDiagnostic("file-unreadable", { path: file }, `cannot read SKILL.md (${code ?? String(error)})`),
      file,
    );
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile())
      return fail(
        createDiagnostic(
          "not-a-regular-file",
          { path: file },
          `SKILL.md is ${describeKind(opened)}, not a regular file`,
        ),
        file,
      );
    if (root !== undefined) {
      const [real, realRoot] = await Promise.all([openedPath(handle, file), realpath(root).catch(() => root)]);
      if (!isInsideFolder(real, realRoot))
        return fail(
          createDiagnostic(
            "symlink-escape",
            { path: file },
            `SKILL.md resolves to ${real}, outside the source root ${realRoot}`,
          ),
          file,
        );
    }
    const read = await readOpenedFileCapped(handle, opened, maxBytes);
    if (!read.ok)
      return fail(tooLarge(file, read.reason === "too-large" ? read.bytesSeen : opened.size, maxBytes), file);
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(read.bytes);
    } catch {
      return fail(createDiagnostic("encoding-invalid", { path: file }, "SKILL.md is not valid UTF-8 text"), file);
    }
    return {
      ok: true,
      dir: folder,
      file,
      bytes: read.bytes,
      text,
      identity: identityFromStats(read.stats),
      diagnostics,
    };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(
      createDiagnostic("file-unreadable", { path: file }, `cannot read SKILL.md (${code ?? String(error)})`),
      file,
    );
  } finally {
    await handle.close();
  }
}

/**
 * Where an opened file really is: on Linux the kernel's path of the descriptor (`/proc/self/fd/N`, whatever the path
 * it was opened by points to now), elsewhere the resolved path (best effort: a swap after the open is not seen).
 */
async function openedPath(handle: FileHandle, file: string): Promise<string> {
  if (confinedFolderIsRaceFree()) {
    const path = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (path !== undefined) return path;
  }
  return realpath(file).catch(() => file);
}

function tooLarge(file: string, size: number, maxBytes: number): SkillDiagnostic {
  return createDiagnostic(
    "file-too-large",
    { path: file },
    `SKILL.md is ${size} bytes${size > maxBytes + 1 ? "" : " or more"}, over the ${maxBytes}-byte limit`,
  );
}

function describeKind(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}

/** The folder name the reference compares the skill name with. */
export function skillDirName(dir: string): string {
  return basename(resolve(dir));
}

/** A SKILL.md a folder listing already found: its folder, its path and the folder it must stay inside. */
export interface ListedSkillMd {
  dir: string;
  file: string;
  root: string;
}

const OPEN_FAST = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * `readSkillMdFile` for a SKILL.md a folder listing just found, in four system calls (open, fstat, read, close) instead
 * of about ten. It reads only in the plain case — the file is the last path component and not a symlink (O_NOFOLLOW),
 * the skill folder is its own root, a regular file under the cap, valid UTF-8 — and otherwise resolves `undefined` so
 * the caller falls back to `readSkillMdFile`, which gives the same result with the exact diagnostic. Same guarantees:
 * never follows a symlink out of the root, never blocks on a FIFO, never reads more than `maxBytes + 1` bytes.
 * Uses the callback API (no FileHandle), so the thread pool reads while the caller parses other files.
 */
export async function readListedSkillMd(listed: ListedSkillMd, maxBytes: number): Promise<SkillMdFile | undefined> {
  const fileName = listedFileName(listed);
  if (fileName === undefined) return undefined;
  let fd: number;
  try {
    fd = await new Promise<number>((done, fail) =>
      openFd(listed.file, OPEN_FAST, (error, opened) => (error ? fail(error) : done(opened))),
    );
  } catch {
    return undefined;
  }
  try {
    const stats = await new Promise<Stats>((done, fail) =>
      fstatFd(fd, (error, result) => (error ? fail(error) : done(result))),
    );
    if (!stats.isFile() || stats.size > maxBytes) return undefined;
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, maxBytes) + 1);
    let total = 0;
    for (;;) {
      const bytesRead = await new Promise<number>((done, fail) =>
        readFd(fd, buffer, total, buffer.length - total, null, (error, count) => (error ? fail(error) : done(count))),
      );
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total === buffer.length) return undefined;
      // A regular file read short of what fstat gave is at its end: no extra round trip to be told so.
      if (total === stats.size) break;
    }
    return listedRead(listed, fileName, buffer.subarray(0, total), stats);
  } catch {
    return undefined;
  } finally {
    closeFd(fd, () => {});
  }
}

/** The SKILL.md name when the listed file is directly in its folder, which is its own root; else undefined. */
function listedFileName({ dir, file, root }: ListedSkillMd): "SKILL.md" | "skill.md" | undefined {
  const fileName = basename(file);
  if (dir !== root || (fileName !== "SKILL.md" && fileName !== "skill.md") || join(dir, fileName) !== file)
    return undefined;
  return fileName;
}

function listedRead(
  listed: ListedSkillMd,
  fileName: "SKILL.md" | "skill.md",
  bytes: Buffer,
  stats: Stats,
): SkillMdFile | undefined {
  if (!isUtf8(bytes)) return undefined;
  const diagnostics: SkillDiagnostic[] =
    fileName === "skill.md"
      ? [
          createDiagnostic(
            "skill-md-lowercase",
            { path: listed.file },
            "the file is named skill.md; the spec names it SKILL.md",
          ),
        ]
      : [];
  return {
    ok: true,
    dir: listed.dir,
    file: listed.file,
    bytes,
    text: bytes.toString("utf8"),
    identity: identityFromStats(stats),
    diagnostics,
  };
}
