import { constants } from "node:fs";
import { readlink, realpath, type FileHandle } from "node:fs/promises";
import { posix } from "node:path";
import { isInsideFolder } from "./is-inside-folder.js";
import { folderOf, folderRefusal, mkdirAt, openAt, O_DIRECTORY } from "./confined-open-at.js";
import { errorCode, fail } from "./confined-refusal.js";
import type { ConfinedFailure } from "./confined-types.js";

// Walking a relative path inside a confined folder one folder at a time, from the folder's open descriptor, and
// resolving a symlink by name against the folder (for reads that may follow links that stay inside).

const MAX_PATH_LENGTH = 4096;
const MAX_COMPONENTS = 64;

/** The open folder confined operations start from, and its path (for messages and the non-/proc fallback). */
export interface ConfinedRoot {
  handle: FileHandle;
  path: string;
}

/** The folder a walk ended in; `owned`: the walk opened it, the caller closes it (false: it is the root itself). */
export type WalkedFolder = { ok: true; handle: FileHandle; path: string; owned: boolean };

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

/** `splitRelativePath` with its refusal as an `invalid-path` failure. */
export function splitConfinedPath(relative: string): { ok: true; names: string[] } | ConfinedFailure {
  const parts = splitRelativePath(relative);
  return parts.ok ? parts : fail("invalid-path", String(relative), `'${String(relative)}': ${parts.message}`);
}

/** Walks to the folder holding the last name; opens (or creates) each folder on the way without following links. */
export async function walkFolders(
  root: ConfinedRoot,
  shown: string,
  names: readonly string[],
  create: boolean,
): Promise<WalkedFolder | (ConfinedFailure & { at?: number })> {
  let current = root.handle;
  let currentPath = root.path;
  let owned = false;
  for (const [index, name] of names.entries()) {
    let next: FileHandle;
    try {
      next = await openAt({ handle: current, path: currentPath }, name, constants.O_RDONLY | O_DIRECTORY);
    } catch (error) {
      if (!(create && errorCode(error) === "ENOENT")) {
        const refusal = await folderRefusal(error, { handle: current, path: currentPath }, shown, name);
        if (owned) await current.close();
        return { ...refusal, at: index };
      }
      try {
        await mkdirAt(current, currentPath, name).catch((mkdirError: unknown) => {
          if (errorCode(mkdirError) !== "EEXIST") throw mkdirError;
        });
        next = await openAt({ handle: current, path: currentPath }, name, constants.O_RDONLY | O_DIRECTORY);
      } catch (createError) {
        const refusal = await folderRefusal(createError, { handle: current, path: currentPath }, shown, name);
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
}

/** Where a symlink at `names[at]` points, as names inside the folder; undefined when it leads outside. */
export async function linkInside(
  root: ConfinedRoot,
  names: readonly string[],
  at: number,
): Promise<string[] | undefined> {
  const parent = await walkFolders(root, "", names.slice(0, at), false);
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
    const roots = [root.path, await realpath(root.path).catch(() => root.path)];
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
}
