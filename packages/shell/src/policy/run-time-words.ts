// Words whose file is known only at run time, as the checker sees them without a sandbox (the local executor): there
// nothing but the checker keeps a write inside the workspace, so every such word is opaque (asked about, or refused).
// Also the values a cluster of short options may carry (`cp -vt.. x` is `cp -v -t ..`).
import type { ShellWord } from "../command/shell-line-types.js";

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
 * True when a glob can only expand to names below the folder written before it (that folder, `globPrefix`, is
 * path-checked like any operand): every piece known, no `..` segment after the first pattern segment, and no pattern
 * segment that starts with `.` (`.*`, `.?` match `..` once the line turns globskipdots off) or holds `..`.
 */
function globStaysBelow(word: ShellWord): boolean {
  if (word.why !== "a glob" || word.pattern === undefined) return false;
  let globbed = false;
  for (const segment of word.pattern.split("/")) {
    const pattern = /[*?[]/.test(segment);
    globbed ||= pattern;
    if (globbed && (segment.includes("..") || (pattern && segment.startsWith(".")))) return false;
  }
  return true;
}

/**
 * Why an argument of `program` is known only at run time in a way that may name a file outside the workspace, or
 * undefined: a literal, a glob that stays below its folder, or any argument of a program that opens no file.
 */
export function runTimeArgument(word: ShellWord, program: string): string | undefined {
  if (word.value !== undefined || NO_FILE_ARGUMENTS.has(program) || globStaysBelow(word)) return undefined;
  return word.why ?? "an expansion";
}
