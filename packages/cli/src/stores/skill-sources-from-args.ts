import { listFlag } from "../io/flag-table.js";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import {
  conventionalSources,
  createSkillRegistry,
  skillsFromDirectory,
  type SkillDiagnostic,
  type SkillRegistry,
  type SkillSource,
} from "@skillgraph/core";
import type { CliIO } from "../io/cli-io.js";
import { CliError } from "../io/cli-error.js";
import { terminalSafeLine } from "../output/terminal-safe.js";

/** How many unloadable-skill reasons are printed without `--verbose`. */
export const FIRST_REASONS = 3;

/** Extra skill folders from SKILLGRAPH_SKILLS (comma-separated, as Ollama's OLLAMA_... lists). */
export function envSkillFolders(env: NodeJS.ProcessEnv): string[] {
  return (env.SKILLGRAPH_SKILLS ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}

/**
 * Checks one explicit skills folder: it must exist and be a folder, else a CliError naming the path.
 * @returns the absolute path
 */
export function checkSkillsFolder(dir: string, cwd: string, what = "skills folder"): string {
  const absolute = resolve(cwd, dir);
  let stats;
  try {
    stats = statSync(absolute);
  } catch (error) {
    const code = (error as { code?: string }).code;
    // Strands' https:// SKILL.md, trpc-agent-go's archive URL: nothing is downloaded at run time
    if ((code === "ENOENT" || code === "ENOTDIR") && /^[a-z][a-z0-9+.-]*:\/\//i.test(dir))
      throw new CliError(
        `${what} '${dir}' is a URL: skills are not downloaded at run time; download (and unpack) it, then give the folder`,
      );
    if (code === "ENOENT" || code === "ENOTDIR") throw new CliError(`${what} ${absolute} does not exist`);
    if (code === "EACCES" || code === "EPERM")
      throw new CliError(`${what} ${absolute} cannot be read (permission denied)`);
    throw new CliError(`${what} ${absolute} cannot be read (${code ?? (error as Error).message})`);
  }
  if (!stats.isDirectory()) throw new CliError(`${what} ${absolute} is not a folder`);
  return absolute;
}

/** The sources a command reads: each `--skills DIR` (explicit), or by default the conventional locations plus ./skills. */
export function skillSourcesFromArgs(
  sourceDirs: readonly string[] | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
): SkillSource[] {
  const extra = envSkillFolders(env).map((dir) => skillsFromDirectory(resolve(cwd, dir)));
  if (sourceDirs && sourceDirs.length > 0)
    return [...sourceDirs.map((dir) => skillsFromDirectory(resolve(cwd, dir))), ...extra];
  return [...conventionalSources({ cwd, home: env.HOME }), ...extra];
}

/** Options of {@link loadSkillsFromArgs}. */
export interface LoadSkillsOptions {
  /** Print every unloadable skill's reason, not only the first few. */
  verbose?: boolean;
  /** Report unloadable skills on stderr. @default true */
  report?: boolean;
  /** Further sources (e.g. a shared store). */
  extraSources?: readonly SkillSource[];
  /** Leave out the conventional folders when no folder is given (the extra sources stand alone). */
  skipDefaults?: boolean;
}

/**
 * The registry over `--skills` folders (or the conventional ones) and SKILLGRAPH_SKILLS. An explicit folder
 * that does not exist, is not a folder, or yields no skill is a CliError naming it; skills that could not be loaded
 * are reported on stderr (count and first reasons, all with `verbose`).
 */
export async function loadSkillsFromArgs(
  sourceDirs: readonly string[] | undefined,
  io: CliIO,
  options: LoadSkillsOptions = {},
): Promise<SkillRegistry> {
  const explicit = [...(sourceDirs ?? []), ...envSkillFolders(io.env)];
  const roots = explicit.map((dir) =>
    checkSkillsFolder(
      dir,
      io.cwd,
      envSkillFolders(io.env).includes(dir) && !(sourceDirs ?? []).includes(dir)
        ? "SKILLGRAPH_SKILLS folder"
        : "skills folder",
    ),
  );
  const folders = options.skipDefaults && explicit.length === 0 ? [] : skillSourcesFromArgs(sourceDirs, io.cwd, io.env);
  const registry = await createSkillRegistry({ sources: [...folders, ...(options.extraSources ?? [])] });
  const problems = registry.diagnostics().filter((diagnostic) => diagnostic.severity === "error");
  if (options.report !== false && problems.length > 0) {
    // Said once: folders that could not be read, then skills that could not be loaded, each with its path and cause.
    const unreadFolders = problems.filter((problem) => problem.code.startsWith("source-"));
    const unloadedSkills = problems.filter((problem) => !problem.code.startsWith("source-"));
    reportProblems(io, unreadFolders, { thing: "folder", what: "could not be read" }, options.verbose === true);
    reportProblems(io, unloadedSkills, { thing: "skill", what: "could not be loaded" }, options.verbose === true);
  }
  const found = new Set(registry.list().map((skill) => skill.origin.sourceId));
  for (const root of roots) {
    const shadowedHere = registry.shadowed().some((shadow) => shadow.shadowed.origin.sourceId === `dir:${root}`);
    if (!found.has(`dir:${root}`) && !shadowedHere) {
      const reason = problems.length > 0 ? " that could be loaded" : "";
      throw new CliError(`no skill${reason} found in ${root} (a skill is a folder holding a SKILL.md)`);
    }
  }
  return registry;
}

/** One stderr block: "warning: N THINGs WHAT:" and a line per problem (path and cause), the first few unless verbose. */
function reportProblems(
  io: CliIO,
  problems: readonly SkillDiagnostic[],
  { thing, what }: { thing: string; what: string },
  verbose: boolean,
): void {
  if (problems.length === 0) return;
  const shown = verbose ? problems : problems.slice(0, FIRST_REASONS);
  io.stderr.write(`warning: ${problems.length} ${thing}${problems.length === 1 ? "" : "s"} ${what}:\n`);
  for (const problem of shown) {
    const message = problem.message.includes(problem.path) ? problem.message : `${problem.path}: ${problem.message}`;
    io.stderr.write(`  ${terminalSafeLine(message)}\n`);
  }
  if (shown.length < problems.length)
    io.stderr.write(`  ... and ${problems.length - shown.length} more (--verbose shows all)\n`);
}

/** `--skills DIR`, repeatable: the same flag in every command that reads skills. */
export const SKILLS_FLAG = listFlag("DIR", "read skills from DIR (repeatable)", {
  default: "the conventional skill folders",
});
