// Which folders `skillgraph validate` checks: each PATH itself, or with --all every skill found in each PATH; entries a
// scan could not open become invalid results of their own.
import { existsSync, lstatSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { skillsFromDirectory } from "@skillgraph/core";
import type { CliIO } from "../../io/cli-io.js";
import { CliError } from "../../io/cli-error.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { checkSkillsFolder } from "../../stores/skill-sources-from-args.js";
import { isUnopened, scanProblems, type ValidationResult } from "./validation-result.js";

/** The skill folders to validate, and the entries a scan could not open (unreadable folders, dangling links). */
export interface FoldersToValidate {
  folders: string[];
  unopened: ValidationResult[];
}

/** Every PATH's folders, in order: the path itself, or (`all`) the skills inside it. */
export async function skillFoldersToValidate(paths: string[], all: boolean, io: CliIO): Promise<FoldersToValidate> {
  const found: FoldersToValidate = { folders: [], unopened: [] };
  for (const path of paths) {
    if (!all) {
      found.folders.push(await skillFolderOf(path, io));
      continue;
    }
    const inside = await skillsInside(path, io);
    found.folders.push(...inside.folders);
    found.unopened.push(...inside.unopened);
  }
  return found;
}

/**
 * PATH as one skill folder: always a result, even a missing path or a file (skill-dir-missing, ...), as the reference
 * says. Like the reference CLI, a path to SKILL.md itself means its folder. A folder that only holds skills gets a hint.
 */
async function skillFolderOf(path: string, io: CliIO): Promise<string> {
  const absolute = resolve(io.cwd, path);
  const dir = basename(absolute).toLowerCase() === "skill.md" && existsSync(absolute) ? dirname(absolute) : absolute;
  if (isFolder(dir) && !hasSkillFileEntry(dir)) {
    const inside = (await skillsFromDirectory(dir).scan()).candidates.length;
    if (inside > 0)
      io.stderr.write(
        `hint: ${terminalSafeLine(dir)} has no SKILL.md but holds ${inside} skill${inside === 1 ? "" : "s"}: did you mean 'skillgraph validate --all ${terminalSafeLine(path)}'?\n`,
      );
  }
  return dir;
}

/** `--all PATH`: the skills in a folder of skills; a CliError when it holds none and nothing it could not open. */
async function skillsInside(path: string, io: CliIO): Promise<FoldersToValidate> {
  const dir = checkSkillsFolder(path, io.cwd, "skills folder");
  const scan = await skillsFromDirectory(dir).scan();
  const folders = scan.candidates.flatMap((candidate) => (candidate.kind === "disk" ? [candidate.dir] : []));
  const unopened = scanProblems(scan.diagnostics);
  for (const warning of scan.diagnostics.filter((d) => d.severity === "warning" && !isUnopened(d)))
    io.stderr.write(`warning: ${warning.code}: ${terminalSafeLine(warning.message)}\n`);
  if (folders.length === 0 && unopened.length === 0)
    throw new CliError(`no skill found in ${dir} (a skill is a folder holding a SKILL.md)`);
  return { folders, unopened };
}

/** True when `path` is a folder (following symlinks). */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** True when the folder has an entry named SKILL.md or skill.md of any type (a FIFO or folder is validated too). */
function hasSkillFileEntry(dir: string): boolean {
  return ["SKILL.md", "skill.md"].some((file) => {
    try {
      lstatSync(join(dir, file));
      return true;
    } catch {
      return false;
    }
  });
}
