import { constants, existsSync } from "node:fs";
import { lstat, mkdir, open, readdir, readlink, realpath, type FileHandle } from "node:fs/promises";
import { posix } from "node:path";
import { isInsideFolder } from "./is-inside-folder.js";

/**
 * Race-free file work inside a folder that someone else may be changing at the same time (a workspace a sandboxed
 * command writes to, a skill folder). Every operation walks from the folder's open descriptor one name at a time with
 * `O_NOFOLLOW`, checks the type of what it opened with `fstat`, and never resolves a path string again after a check:
 * a symlink or FIFO swapped in between is refused, never followed or waited on.
 *
 * On Linux the walk goes through `/proc/self/fd/<fd>/<name>`, which is `openat(fd, name)`: the kernel resolves only
 * `name` relative to the descriptor, whatever happened to the folder's path meanwhile. Where `/proc/self/fd` is
 * missing (macOS, a container without /proc) the same checks run on path strings, which narrows the race to a
 * window but cannot close it; {@link confinedFolderIsRaceFree} tells which applies.
 */

/** Why a confined operation refused a path. */
export type ConfinedRefusal =
  | "invalid-path"
  | "not-found"
  | "symlink"
  | "not-a-file"
  | "not-a-folder"
  | "too-large"
  | "exists"
  | "io-error";

/** A refusal with a sentence saying what was wrong with which path. */
export interface ConfinedFailure {
  ok: false;
  reason: ConfinedRefusal;
  /** The relative path the caller asked for. */
  path: string;
  message: string;
}

/** A file read inside a confined folder. */
export interface ConfinedFileRead {
  ok: true;
  path: string;
  bytes: Buffer;
  /** Size from fstat of the opened descriptor (the bytes read may be fewer when `headBytes` was given). */
  size: number;
  mtimeMs: number;
  dev: number;
  ino: number;
}

/** One entry found by {@link ConfinedFolder.list}. */
export interface ConfinedEntry {
  /** `/`-separated path relative to the listed folder. */
  path: string;
  kind: "file" | "folder" | "symlink" | "other";
  /** Size and modification time of a file, from lstat at listing time (informational: re-checked when opened). */
  size?: number;
  mtimeMs?: number;
  /** Hard-link count of a file when over 1 (the same file has another name somewhere), from lstat at listing time. */
  links?: number;
}

/** Options of {@link ConfinedFolder.readFile}. */
export interface ConfinedReadOptions {
  /** Refuse files larger than this (checked on the descriptor before and while reading). */
  maxBytes: number;
  /** Read only the first bytes (the file may be larger than this, up to `maxBytes`). */
  headBytes?: number;
  /**
   * Follow at most this many symlinks whose target stays inside the folder (resolved by name against the folder, then
   * walked again with O_NOFOLLOW, so a swap meanwhile is refused, never followed out). @default 0 (never follow)
   */
  followInsideLinks?: number;
  /** Refuse a file with more than one hard link (checked on the opened descriptor). @default false */
  refuseHardLinks?: boolean;
}

/** Options of {@link ConfinedFolder.list}. */
export interface ConfinedListOptions {
  /** Stop after this many entries (files, folders and others together). */
  maxEntries: number;
  /** Do not descend deeper than this many folders. @default 16 */
  maxDepth?: number;
  /** Skip entries whose name this returns true for (they are not descended into either). */
  skip?: (name: string, relativePath: string) => boolean;
}

/** A folder opened once, in which every file operation is confined (see the module comment). */
export interface ConfinedFolder {
  /** The path the folder was opened at (for messages only: operations never use it). */
  readonly path: string;
  /** Reads a regular file (never a symlink, FIFO, device or folder), size-capped. */
  readFile(relative: string, options: ConfinedReadOptions): Promise<ConfinedFileRead | ConfinedFailure>;
  /**
   * Writes a regular file, creating missing folders on the way (never through a symlink). An existing regular file is
   * replaced; an existing symlink, folder or FIFO is refused.
   */
  writeFile(
    relative: string,
    content: string | Uint8Array,
    options?: { mode?: number },
  ): Promise<{ ok: true; path: string } | ConfinedFailure>;
  /** Creates a folder (and missing parents) without following symlinks. */
  makeFolder(relative: string): Promise<{ ok: true; path: string } | ConfinedFailure>;
  /** Lists a sub-folder recursively without following symlinks (they are reported as `symlink`). */
  list(
    relative: string,
    options: ConfinedListOptions,
  ): Promise<{ ok: true; entries: ConfinedEntry[]; truncated: boolean } | ConfinedFailure>;
  /** Closes the folder's descriptor. */
  close(): Promise<void>;
}

const MAX_PATH_LENGTH = 4096;
const MAX_COMPONENTS = 64;
const READ_CHUNK = 64 * 1024;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

let raceFree: boolean | undefined;

/** True when confined operations are race-free here (Linux with /proc); false means best-effort path checks. */
export function confinedFolderIsRaceFree(): boolean {
  raceFree ??= process.platform === "linux" && existsSync("/proc/self/fd");
  return raceFree;
}

/**
 * Splits a caller-supplied relative path into names, or says why it is not one: absolute, empty, `..`, NUL, a
 * backslash-drive path, too long or too deep. `.` segments and repeated slashes are dropped.
 */
export function splitRelativePath(relative: string): { ok: true; names: string[] } | { ok: false; message: string } {
  if (typeof relative !== "string") return { ok: false, message: "path must be a string" };
  if (relative.includes("\0")) return { ok: false, message: "path contains a NUL byte" };
  if (relative.length > MAX_PATH_LENGTH)
    return { ok: false, message: `path is longer than ${MAX_PATH_LENGTH} characters` };
  if (relative.startsWith("/") || relative.startsWith("\\") || /^[a-zA-Z]:[\\/]/.test(relative)) {
    return { ok: false, message: "path must be relative" };
  }
  const names = relative.split("/").filter((name) => name !== "" && name !== ".");
  if (names.includes("..")) return { ok: false, message: "path may not contain '..'" };
  if (names.length > MAX_COMPONENTS) return { ok: false, message: `path has more than ${MAX_COMPONENTS} parts` };
  return { ok: true, names };
}

const fail = (reason: ConfinedRefusal, path: string, message: string): ConfinedFailure => ({
  ok: false,
  reason,
  path,
  message,
});

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

/** Maps an open/mkdir error on `name` to a refusal. */
function refusalOf(error: unknown, path: string, name: string): ConfinedFailure {
  switch (errorCode(error)) {
    case "ENOENT":
      return fail("not-found", path, `'${path}': '${name}' does not exist`);
    case "ELOOP":
    case "EMLINK":
      return fail("symlink", path, `'${path}': '${name}' is a symbolic link, which is never followed`);
    case "ENOTDIR":
      return fail("not-a-folder", path, `'${path}': '${name}' is not a folder`);
    case "EEXIST":
      return fail("exists", path, `'${path}': '${name}' already exists and is not a folder`);
    case "ENXIO":
    case "EISDIR":
      return fail("not-a-file", path, `'${path}': '${name}' is not a regular file`);
    default:
      return fail("io-error", path, `'${path}': ${(error as Error)?.message ?? String(error)}`);
  }
}

/** Opens `name` inside the folder open as `parent` without following a symlink at `name`. */
function openAt(
  parent: FileHandle,
  parentPath: string,
  name: string,
  flags: number,
  mode?: number,
): Promise<FileHandle> {
  if (confinedFolderIsRaceFree()) return open(`/proc/self/fd/${parent.fd}/${name}`, flags | O_NOFOLLOW, mode);
  return open(`${parentPath}/${name}`, flags | O_NOFOLLOW, mode);
}

async function mkdirAt(parent: FileHandle, parentPath: string, name: string): Promise<void> {
  const target = confinedFolderIsRaceFree() ? `/proc/self/fd/${parent.fd}/${name}` : `${parentPath}/${name}`;
  await mkdir(target, { mode: 0o755 });
}

/** O_DIRECTORY|O_NOFOLLOW on a symlink gives ENOTDIR: tell a symlink apart (for the message only, never to decide). */
async function folderRefusal(
  error: unknown,
  parent: FileHandle,
  parentPath: string,
  shown: string,
  name: string,
): Promise<ConfinedFailure> {
  if (errorCode(error) === "ENOTDIR" || errorCode(error) === "EEXIST") {
    const stats = await lstat(`${folderOf(parent, parentPath)}/${name}`).catch(() => undefined);
    if (stats?.isSymbolicLink()) return refusalOf({ code: "ELOOP" }, shown, name);
    return refusalOf({ code: "ENOTDIR" }, shown, name);
  }
  return refusalOf(error, shown, name);
}

function stripAt(failure: ConfinedFailure & { at?: number }): ConfinedFailure {
  const { at: _at, ...rest } = failure;
  return rest;
}

function folderOf(handle: FileHandle, path: string): string {
  return confinedFolderIsRaceFree() ? `/proc/self/fd/${handle.fd}` : path;
}

/**
 * Opens a folder for confined file work. The folder's own path is trusted (it comes from the application, not the
 * model) and may go through symlinks; everything below it is not.
 * @param path absolute path of the folder
 * @example
 * const workspace = await openConfinedFolder("/tmp/ws");
 * const read = await workspace.readFile("out/report.md", { maxBytes: 1 << 20 });
 * await workspace.close();
 */
export async function openConfinedFolder(path: string): Promise<ConfinedFolder> {
  const root = await open(path, constants.O_RDONLY | O_DIRECTORY);
  const rootStats = await root.stat();
  if (!rootStats.isDirectory()) {
    await root.close();
    throw Object.assign(new Error(`'${path}' is not a folder`), { code: "ENOTDIR" });
  }

  /** Walks to the folder holding the last name; opens (or creates) each folder on the way without following links. */
  const walkFolders = async (
    shown: string,
    names: readonly string[],
    create: boolean,
  ): Promise<{ ok: true; handle: FileHandle; path: string; owned: boolean } | (ConfinedFailure & { at?: number })> => {
    let current = root;
    let currentPath = path;
    let owned = false;
    for (const [index, name] of names.entries()) {
      let next: FileHandle;
      try {
        next = await openAt(current, currentPath, name, constants.O_RDONLY | O_DIRECTORY);
      } catch (error) {
        if (!(create && errorCode(error) === "ENOENT")) {
          const refusal = await folderRefusal(error, current, currentPath, shown, name);
          if (owned) await current.close();
          return { ...refusal, at: index };
        }
        try {
          await mkdirAt(current, currentPath, name).catch((mkdirError: unknown) => {
            if (errorCode(mkdirError) !== "EEXIST") throw mkdirError;
          });
          next = await openAt(current, currentPath, name, constants.O_RDONLY | O_DIRECTORY);
        } catch (createError) {
          const refusal = await folderRefusal(createError, current, currentPath, shown, name);
          if (owned) await current.close();
          return refusal;
        }
      }
      if (owned) await current.close();
      const stats = await next.stat();
      if (!stats.isDirectory()) {
        await next.close();
        return fail("not-a-folder", shown, `'${shown}': '${name}' is not a folder`);
      }
      current = next;
      currentPath = `${currentPath}/${name}`;
      owned = true;
    }
    return { ok: true, handle: current, path: currentPath, owned };
  };

  const split = (relative: string) => {
    const parts = splitRelativePath(relative);
    return parts.ok ? parts : fail("invalid-path", String(relative), `'${String(relative)}': ${parts.message}`);
  };

  /** Where a symlink at `names[at]` points, as names inside the folder; undefined when it leads outside. */
  const linkInside = async (names: readonly string[], at: number): Promise<string[] | undefined> => {
    const parent = await walkFolders("", names.slice(0, at), false);
    if (!parent.ok) return undefined;
    let target: string;
    try {
      target = await readlink(`${folderOf(parent.handle, parent.path)}/${names[at]}`);
    } catch {
      return undefined;
    } finally {
      if (parent.owned) await parent.handle.close();
    }
    let base: string[] = names.slice(0, at);
    if (target.startsWith("/")) {
      const roots = [path, await realpath(path).catch(() => path)];
      const normalTarget = posix.normalize(target);
      const inside = roots
        .filter((rootPath) => isInsideFolder(normalTarget, rootPath))
        .map((rootPath) => posix.relative(rootPath, normalTarget))[0];
      if (inside === undefined) return undefined;
      base = [];
      target = inside;
    }
    const resolved = [...base];
    for (const name of target.split("/")) {
      if (name === "" || name === ".") continue;
      if (name === "..") {
        if (resolved.length === 0) return undefined;
        resolved.pop();
      } else resolved.push(name);
    }
    return [...resolved, ...names.slice(at + 1)];
  };

  const readFile: ConfinedFolder["readFile"] = async (relative, options) => {
    const parts = split(relative);
    if (!parts.ok) return parts;
    let names = parts.names;
    let hops = options.followInsideLinks ?? 0;
    let opened: FileHandle | undefined;
    while (opened === undefined) {
      const last = names.at(-1);
      if (last === undefined) return fail("not-a-file", relative, `'${relative}' is the folder itself, not a file`);
      const folder = await walkFolders(relative, names.slice(0, -1), false);
      let failure: (ConfinedFailure & { at?: number }) | undefined;
      if (!folder.ok) failure = folder;
      else {
        try {
          // O_NONBLOCK: a FIFO opens at once instead of waiting for a writer, and is then refused by its type
          opened = await openAt(folder.handle, folder.path, last, constants.O_RDONLY | O_NONBLOCK);
        } catch (error) {
          failure = { ...refusalOf(error, relative, last), at: names.length - 1 };
        } finally {
          if (folder.owned) await folder.handle.close();
        }
      }
      if (failure === undefined) break;
      if (failure.reason !== "symlink" || hops <= 0 || failure.at === undefined) return stripAt(failure);
      hops -= 1;
      const next = await linkInside(names, failure.at);
      if (next === undefined)
        return fail("symlink", relative, `'${relative}' goes through a symbolic link leading outside the folder`);
      names = next;
    }
    const handle = opened as FileHandle; // the loop only ends with a handle or a return
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) {
        const what = stats.isDirectory() ? "a folder" : "not a regular file";
        return fail("not-a-file", relative, `'${relative}' is ${what}`);
      }
      if (options.refuseHardLinks && stats.nlink > 1)
        return fail("not-a-file", relative, `'${relative}' is a hard link (the same file has another name)`);
      if (stats.size > options.maxBytes) {
        return fail(
          "too-large",
          relative,
          `'${relative}' is ${stats.size} bytes, over the ${options.maxBytes}-byte limit`,
        );
      }
      const limit = options.headBytes === undefined ? options.maxBytes : Math.min(options.headBytes, options.maxBytes);
      const chunks: Buffer[] = [];
      let total = 0;
      for (;;) {
        const want = Math.min(READ_CHUNK, limit + 1 - total);
        if (want <= 0) break;
        const buffer = Buffer.allocUnsafe(want);
        const { bytesRead } = await handle.read(buffer, 0, want, null);
        if (bytesRead === 0) break;
        chunks.push(bytesRead === want ? buffer : buffer.subarray(0, bytesRead));
        total += bytesRead;
      }
      if (options.headBytes === undefined && total > options.maxBytes) {
        return fail(
          "too-large",
          relative,
          `'${relative}' grew over the ${options.maxBytes}-byte limit while being read`,
        );
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
    } finally {
      await handle.close();
    }
  };

  const writeFile: ConfinedFolder["writeFile"] = async (relative, content, options = {}) => {
    const parts = split(relative);
    if (!parts.ok) return parts;
    const names = parts.names;
    const last = names.at(-1);
    if (last === undefined) return fail("invalid-path", relative, `'${relative}' names the folder itself, not a file`);
    const folder = await walkFolders(relative, names.slice(0, -1), true);
    if (!folder.ok) return stripAt(folder);
    let handle: FileHandle;
    try {
      // no O_TRUNC before the type check: a FIFO or device must not be touched; O_NONBLOCK keeps a FIFO from blocking
      handle = await openAt(
        folder.handle,
        folder.path,
        last,
        constants.O_WRONLY | constants.O_CREAT | O_NONBLOCK,
        options.mode ?? 0o644,
      );
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
  };

  const makeFolder: ConfinedFolder["makeFolder"] = async (relative) => {
    const parts = split(relative);
    if (!parts.ok) return parts;
    const folder = await walkFolders(relative, parts.names, true);
    if (!folder.ok) return stripAt(folder);
    if (folder.owned) await folder.handle.close();
    return { ok: true, path: parts.names.join("/") };
  };

  const list: ConfinedFolder["list"] = async (relative, options) => {
    const parts = split(relative);
    if (!parts.ok) return parts;
    const start = await walkFolders(relative, parts.names, false);
    if (!start.ok) return stripAt(start);
    const entries: ConfinedEntry[] = [];
    const maxDepth = options.maxDepth ?? 16;
    let truncated = false;
    const visit = async (handle: FileHandle, handlePath: string, prefix: string, depth: number): Promise<void> => {
      let dirents;
      try {
        dirents = await readdir(folderOf(handle, handlePath), { withFileTypes: true });
      } catch {
        return;
      }
      dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const dirent of dirents) {
        if (entries.length >= options.maxEntries) {
          truncated = true;
          return;
        }
        const childPath = prefix === "" ? dirent.name : `${prefix}/${dirent.name}`;
        if (options.skip?.(dirent.name, childPath)) continue;
        if (dirent.isSymbolicLink()) entries.push({ path: childPath, kind: "symlink" });
        else if (dirent.isFile()) {
          const stats = await lstat(`${folderOf(handle, handlePath)}/${dirent.name}`).catch(() => undefined);
          if (stats?.isFile())
            entries.push({
              path: childPath,
              kind: "file",
              size: stats.size,
              mtimeMs: stats.mtimeMs,
              ...(stats.nlink > 1 ? { links: stats.nlink } : {}),
            });
          else if (stats) entries.push({ path: childPath, kind: stats.isSymbolicLink() ? "symlink" : "other" });
        } else if (dirent.isDirectory()) {
          entries.push({ path: childPath, kind: "folder" });
          if (depth >= maxDepth) continue;
          let child: FileHandle;
          try {
            child = await openAt(handle, handlePath, dirent.name, constants.O_RDONLY | O_DIRECTORY);
          } catch {
            continue; // swapped for a symlink or removed since readdir: not descended
          }
          try {
            await visit(child, `${handlePath}/${dirent.name}`, childPath, depth + 1);
          } finally {
            await child.close();
          }
        } else entries.push({ path: childPath, kind: "other" });
      }
    };
    try {
      await visit(start.handle, start.path, "", 0);
    } finally {
      if (start.owned) await start.handle.close();
    }
    return { ok: true, entries, truncated };
  };

  return { path, readFile, writeFile, makeFolder, list, close: () => root.close() };
}

/**
 * Opens `folder`, runs `work` with it and closes it.
 * @example const read = await withConfinedFolder(dir, (folder) => folder.readFile("a.txt", { maxBytes: 1024 }));
 */
export async function withConfinedFolder<T>(
  folder: string,
  work: (confined: ConfinedFolder) => Promise<T>,
): Promise<T> {
  const confined = await openConfinedFolder(folder);
  try {
    return await work(confined);
  } finally {
    await confined.close();
  }
}
