import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

/** The PATH executables are resolved from, whatever the environment says. */
export const DEFAULT_FIXED_PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * Finds a bare program name on a fixed PATH (never the process's or the command's PATH, never the working directory).
 * Returns the absolute path, or undefined when no executable file of that name exists.
 * @param name a program name without `/`
 * @param searchPath colon-separated absolute directories @default DEFAULT_FIXED_PATH
 */
export function resolveExecutable(name: string, searchPath: string = DEFAULT_FIXED_PATH): string | undefined {
  if (name.includes("/") || name === "" || name === "." || name === "..") return undefined;
  for (const dir of searchPath.split(":")) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** True when `file` is a regular file (after symlinks) this process may execute. */
export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
