import { isAbsolute, relative, sep } from "node:path";

/**
 * True when `path` is `folder` itself or lies inside it. Both must be absolute and already resolved (no `..` segments
 * left, symlinks resolved if that matters). A name that merely starts with dots (`..notes`) is inside; a sibling that
 * shares a prefix (`/a/bc` for folder `/a/b`) is not. Lexical only: it reads nothing from the file system.
 * @example isInsideFolder("/ws/..notes.txt", "/ws") // true
 * @example isInsideFolder("/ws-other/x", "/ws") // false
 */
export function isInsideFolder(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  if (rel === "") return true;
  if (isAbsolute(rel)) return false;
  return rel !== ".." && !rel.startsWith(`..${sep}`);
}
