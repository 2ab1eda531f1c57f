// The host folders a skill environment's interpreter lives in. A venv made with a Python that is not under /usr
// (pyenv, conda, Homebrew, a `skillgraph deps --install` on such a host) points at that interpreter through
// `pyvenv.cfg`'s `home` and its `bin/python` symlink; the sandbox shows only /usr, so that prefix is bound read-only.
import { readFileSync } from "node:fs";
import path from "node:path";
import { isInsideFolder } from "../internal/core.js";
import { realpathOrUndefined } from "../policy/path-confinement.js";

/** Folders every sandbox already shows read-only (the merged /usr and its top-level links). */
const SYSTEM_FOLDERS = ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"];

/** `home` of a venv's pyvenv.cfg (the folder of the interpreter it was made with), if any. */
function venvHome(environmentDir: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(environmentDir, "pyvenv.cfg"), "utf8");
  } catch {
    return undefined;
  }
  const home = /^\s*home\s*=\s*(.+?)\s*$/m.exec(text)?.[1];
  return home !== undefined && path.isAbsolute(home) ? home : undefined;
}

/** True when the folder is `/` or a system folder (or inside one): nothing to bind. */
function alreadyVisible(folder: string): boolean {
  return folder === "/" || SYSTEM_FOLDERS.some((system) => isInsideFolder(folder, system));
}

/**
 * The prefixes of the interpreter a skill environment was made with, as host folders to bind read-only at the same
 * path: the parent of pyvenv.cfg's `home`, and the prefix its `bin/python` symlink resolves into, each left out when
 * the sandbox shows it already (under /usr) or it does not exist.
 * @param environmentDir host folder of the venv
 */
export function interpreterPrefixes(environmentDir: string): string[] {
  const home = venvHome(environmentDir);
  const candidates: string[] = [];
  if (home !== undefined) candidates.push(path.dirname(path.normalize(home)));
  const python = realpathOrUndefined(path.join(environmentDir, "bin", "python"));
  if (python !== undefined && !isInsideFolder(python, realpathOrUndefined(environmentDir) ?? environmentDir))
    candidates.push(path.dirname(path.dirname(python)));
  const out: string[] = [];
  for (const candidate of candidates) {
    const real = realpathOrUndefined(candidate);
    if (real === undefined || alreadyVisible(real) || alreadyVisible(candidate)) continue;
    if (!out.includes(candidate)) out.push(candidate);
  }
  return out;
}
