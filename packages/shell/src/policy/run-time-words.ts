// Words whose file is known only at run time, as the checker sees them without a sandbox (the local executor): there
// nothing but the checker keeps a write inside the workspace, so every such word is opaque (asked about, or refused).
// Also the values a cluster of short options may carry (`cp -vt.. x` is `cp -v -t ..`).
import { type Dirent, readdirSync } from "node:fs";
import path from "node:path";
import type { ShellWord } from "../command/shell-line-types.js";
import { isInsideFolder } from "../internal/core.js";
import { realpathOrUndefined } from "./path-confinement.js";

/** Programs whose arguments never name a file they open (their output goes through redirections, checked apart). */
const NO_FILE_ARGUMENTS = new Set([
  "echo",
  "printf",
  "test",
  "[",
  "true",
  "false",
  "basename",
  "dirname",
  "expr",
  "seq",
  "sleep",
]);

/** Most option letters of one cluster whose glued values are checked (longer clusters: see {@link clusterValues}). */
const MAX_CLUSTER = 32;

/**
 * The values a word of short options may carry glued (getopt: the first letter taking a value takes the rest of the
 * word): every suffix after the second character, so `-vt..` yields `t..` and `..`, `-uo../x` yields `o../x` and `../x`.
 * The letters run is bounded; past it the rest of the word is one more value.
 */
export function clusterValues(value: string): string[] {
  const letters = /^-([A-Za-z0-9]+)/.exec(value)?.[1];
  if (letters === undefined || value.startsWith("--")) return [];
  const end = 1 + Math.min(letters.length, MAX_CLUSTER);
  const values: string[] = [];
  for (let index = 2; index <= end && index < value.length; index += 1) values.push(value.slice(index));
  return values;
}

/**
 * The folder a glob lists (the typed text before its last `/`, or `.`) when it can only name entries of that one
 * folder: every piece known, the pattern in the last segment only, not starting with `.` (`.*`, `.?` match `..` once
 * the line turns globskipdots off) and holding no `..`. Undefined for any other glob.
 */
function globFolder(word: ShellWord): string | undefined {
  if (word.why !== "a glob" || word.pattern === undefined || word.globPrefix === undefined) return undefined;
  const slash = word.pattern.lastIndexOf("/");
  const last = word.pattern.slice(slash + 1);
  if (slash >= word.globPrefix.length || last.startsWith(".") || last.includes("..")) return undefined;
  return slash === -1 ? "." : word.pattern.slice(0, slash + 1);
}

/** Most entries of a folder a glob lists that are checked for symlinks leading out; past it the glob is run-time. */
export const MAX_GLOB_FOLDER_ENTRIES = 4096;

/**
 * True when a folder a glob lists may lead outside the roots: it holds a symlink whose target is outside (or missing:
 * a write through it creates the target), or more than {@link MAX_GLOB_FOLDER_ENTRIES} entries. A missing folder
 * leads nowhere (the glob stays as typed).
 */
export function folderLeadsOut(folder: string, roots: readonly string[]): boolean {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return false;
  }
  if (entries.length > MAX_GLOB_FOLDER_ENTRIES) return true;
  return entries.some((entry) => {
    if (!entry.isSymbolicLink()) return false;
    const real = realpathOrUndefined(path.join(folder, entry.name));
    return real === undefined || !roots.some((root) => isInsideFolder(real, root));
  });
}

/**
 * Why an argument of `program` is known only at run time in a way that may name a file outside the workspace, or
 * undefined: a literal, any argument of a program that opens no file, or a glob listing one folder that
 * `leadsOut(folder)` clears (its typed folder; without `leadsOut`, the cheap pre-check, such globs pass).
 */
export function runTimeArgument(
  word: ShellWord,
  program: string,
  leadsOut?: (folder: string) => boolean,
): string | undefined {
  if (word.value !== undefined || NO_FILE_ARGUMENTS.has(program)) return undefined;
  const folder = globFolder(word);
  if (folder !== undefined && !leadsOut?.(folder)) return undefined;
  if (folder !== undefined)
    return "a glob over a folder holding a symlink that leads out (or too many entries to check)";
  return word.why ?? "an expansion";
}
