// The files a command writes, for the programs the checker knows, and whether a path is git's repository
// configuration (.git/, .gitattributes, .gitmodules): a filter driver written there runs on the next `git status`.
import { existsSync } from "node:fs";
import path from "node:path";
import type { ShellWord } from "../command/shell-line-types.js";
import { programName } from "./command-rules.js";

/** Programs whose every operand may be written (a destination, or a source copied under its own name). */
const OPERANDS_WRITTEN = new Set(["tee", "cp", "mv", "install", "ln", "rsync", "touch", "mkdir", "truncate", "chmod"]);

/** Options whose value is a file the program writes (`-o FILE`, `--output=FILE`, `-t DIR`, ...). */
const OUTPUT_OPTIONS = new Set(["-o", "--output", "--output-file", "--output-document", "-t", "--target-directory"]);

/** Short options whose glued value is a path (`-t..`, `-o../x`): checked like an operand. */
const PATH_SHORT_OPTIONS = new Set(["-t", "-o", "-O", "-C", "-f"]);

/**
 * A word that is an option glued to a path: the path (`--output=../x`, `-t..`, `-o../x`, and for dd `of=../x`), so
 * it is checked like an operand. Other glued short options (`-F/`, `-d,`) are not paths and are left alone.
 */
export function attachedValue(word: ShellWord, program: string): string | undefined {
  const value = word.value;
  if (value === undefined) return undefined;
  if (value.startsWith("-") && value.includes("=")) return value.slice(value.indexOf("=") + 1);
  if (value.length > 2 && PATH_SHORT_OPTIONS.has(value.slice(0, 2))) return value.slice(2);
  if (program === "dd" && /^(of|if)=./.test(value)) return value.slice(3);
  return undefined;
}

/**
 * The words of a command that name files it may write: every operand of tee, cp, mv, install, ln, rsync, touch, mkdir,
 * truncate and chmod, the files of `sed -i`/`perl -i`, dd's `of=`, and the value of `-o`, `--output`, `-t`,
 * `--target-directory` for any program. A word known only at run time among them is returned as it is.
 */
export function writtenWords(words: readonly ShellWord[]): ShellWord[] {
  const name = words[0]?.value === undefined ? "" : programName(words[0].value);
  const args = words.slice(1);
  const inPlace = (name === "sed" || name === "perl") && args.some((word) => /^-[A-Za-z]*i/.test(word.value ?? ""));
  const written: ShellWord[] = [];
  let options = true;
  for (const [index, word] of args.entries()) {
    const value = word.value;
    if (value === "--") {
      options = false;
      continue;
    }
    const option = options && value !== undefined && value.startsWith("-") && value !== "-";
    const previous = args[index - 1]?.value;
    if (previous !== undefined && OUTPUT_OPTIONS.has(previous)) written.push(word);
    else if (option) {
      const glued = value.startsWith("--") ? value.slice(0, value.indexOf("=")) : value.slice(0, 2);
      const attached = attachedValue(word, name);
      if (OUTPUT_OPTIONS.has(glued) && attached !== undefined) written.push({ ...word, value: attached });
    } else if (name === "dd" && value?.startsWith("of=")) written.push({ ...word, value: value.slice(3) });
    else if (OPERANDS_WRITTEN.has(name) || inPlace) written.push(word);
  }
  return written;
}

/** Programs whose operands before the last are sources, only read (`cp SRC... DEST`); `mv` removes its sources. */
const COPIERS = new Set(["cp", "install", "rsync", "ln"]);

/**
 * The start offsets of the words a copier only reads: its operands before the last (or every operand when the
 * destination is given by `-t` / `--target-directory`). Empty for any other program.
 */
export function copiedSources(words: readonly ShellWord[]): Set<number> {
  const name = words[0]?.value === undefined ? "" : programName(words[0].value);
  if (!COPIERS.has(name)) return new Set();
  const operands: ShellWord[] = [];
  let targetOption = false;
  let options = true;
  for (const [index, word] of words.slice(1).entries()) {
    const value = word.value;
    const previous = words[index]?.value;
    if (value === "--" && options) options = false;
    else if (options && value !== undefined && value.startsWith("-") && value !== "-")
      targetOption ||= /^(-t|--target-directory)/.test(value);
    else if (previous === "-t" || previous === "--target-directory") continue;
    else operands.push(word);
  }
  const sources = targetOption ? operands : operands.slice(0, -1);
  return new Set(sources.map((word) => word.start));
}

const CONFIG_NAMES = new Set([".gitattributes", ".gitmodules"]);

/**
 * True when writing `target` (a path, relative to one of `cwds`, both as host paths) may change git's repository
 * configuration: a `.git` path segment (any case), or a file named `.gitattributes` / `.gitmodules`.
 */
export function isRepositoryConfig(target: string, cwds: readonly string[], workspaceDir: string): boolean {
  const segments = target.split(/[\\/]/).map((segment) => segment.toLowerCase());
  if (segments.includes(".git") || CONFIG_NAMES.has(segments.at(-1) ?? "")) return true;
  return cwds.some((cwd) =>
    path
      .relative(workspaceDir, path.resolve(cwd, target))
      .split(path.sep)
      .some((segment) => segment.toLowerCase() === ".git"),
  );
}

/** Most folders climbed from a write target looking for a git folder (deeper targets count as inside one). */
const MAX_CLIMB = 64;

/** True when `dir` is shaped like a git folder (git's own test: HEAD, and objects/ + refs/ or a commondir file). */
function isGitFolder(dir: string): boolean {
  const has = (name: string) => existsSync(path.join(dir, name));
  return has("HEAD") && ((has("objects") && has("refs")) || has("commondir"));
}

/**
 * True when writing `target` lands in a folder that already is a git folder under any other name than `.git` (a
 * `--separate-git-dir`, a bare repository, a worktree's git folder): its `config` and `info/attributes` configure git
 * as `.git/config` does. Climbs from the target to the workspace (at most {@link MAX_CLIMB} folders, past that: true).
 */
export function insideGitFolder(target: string, cwds: readonly string[], workspaceDir: string): boolean {
  const top = path.resolve(workspaceDir);
  return cwds.some((cwd) => {
    let dir = path.resolve(cwd, target);
    for (let climbed = 0; dir.startsWith(`${top}/`); climbed += 1) {
      if (climbed >= MAX_CLIMB || isGitFolder(dir)) return true;
      dir = path.dirname(dir);
    }
    return false;
  });
}
