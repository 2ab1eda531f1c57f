import { isAbsolute, relative, sep } from "node:path";

/** True when `path` is `folder` itself or lies inside it (both absolute, already resolved); `..foo` names stay inside. */
export function isInsideFolder(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  if (rel === "") return true;
  if (isAbsolute(rel)) return false;
  return rel !== ".." && !rel.startsWith(`..${sep}`);
}
