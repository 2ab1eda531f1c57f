import { constants, existsSync } from "node:fs";
import { lstat, mkdir, open, type FileHandle } from "node:fs/promises";
import { refusalOf, errorCode } from "./confined-refusal.js";
import type { ConfinedFailure } from "./confined-types.js";

// Opening one name inside an open folder without following a symlink at that name: the single step every confined
// operation is made of (see confined-folder.ts).

export const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
export const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
export const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

let raceFree: boolean | undefined;

/** True when confined operations are race-free here (Linux with /proc); false means best-effort path checks. */
export function confinedFolderIsRaceFree(): boolean {
  raceFree ??= process.platform === "linux" && existsSync("/proc/self/fd");
  return raceFree;
}

/** The path that names the open folder itself: its descriptor under /proc where available, else its path. */
export function folderOf(handle: FileHandle, path: string): string {
  return confinedFolderIsRaceFree() ? `/proc/self/fd/${handle.fd}` : path;
}

/** A folder open by descriptor, with the path it was opened at (used where /proc is missing). */
export interface OpenFolder {
  handle: FileHandle;
  path: string;
}

/** Opens `name` inside the open folder `parent` without following a symlink at `name`. */
export function openAt(parent: OpenFolder, name: string, flags: number, mode?: number): Promise<FileHandle> {
  if (confinedFolderIsRaceFree()) return open(`/proc/self/fd/${parent.handle.fd}/${name}`, flags | O_NOFOLLOW, mode);
  return open(`${parent.path}/${name}`, flags | O_NOFOLLOW, mode);
}

/** Creates the folder `name` inside the folder open as `parent`. */
export async function mkdirAt(parent: FileHandle, parentPath: string, name: string): Promise<void> {
  const target = confinedFolderIsRaceFree() ? `/proc/self/fd/${parent.fd}/${name}` : `${parentPath}/${name}`;
  await mkdir(target, { mode: 0o755 });
}

/** O_DIRECTORY|O_NOFOLLOW on a symlink gives ENOTDIR: tell a symlink apart (for the message only, never to decide). */
export async function folderRefusal(
  error: unknown,
  parent: OpenFolder,
  shown: string,
  name: string,
): Promise<ConfinedFailure> {
  if (errorCode(error) === "ENOTDIR" || errorCode(error) === "EEXIST") {
    const stats = await lstat(`${folderOf(parent.handle, parent.path)}/${name}`).catch(() => undefined);
    if (stats?.isSymbolicLink()) return refusalOf({ code: "ELOOP" }, shown, name);
    return refusalOf({ code: "ENOTDIR" }, shown, name);
  }
  return refusalOf(error, shown, name);
}
