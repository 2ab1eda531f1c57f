import { randomBytes } from "node:crypto";
import { existsSync, lstatSync, realpathSync, statSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { skillsFromDirectory, skillsFromPackage, validateSkill, type SkillCandidate } from "@skillgraph/core";
import type { CliIO } from "../../io/cli-io.js";
import { CliError } from "../../io/cli-error.js";
import type { CommandHelp } from "../../output/command-help.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { UsageError } from "../../io/usage-error.js";
import { copySkillFolder } from "./copy-skill-folder.js";
import { z } from "zod";
import { booleanFlag, flagsHelp, flagsUsage, parseFlags, stringFlag } from "../../io/flag-table.js";

/** Every flag of `skillgraph add`, in help order. */
const addFlags = {
  dir: stringFlag("DIR", "where the skills go", {
    default: ".agents/skills",
    schema: z.string().default(".agents/skills"),
  }),
  force: booleanFlag("replace a skill of the same name that is already there", { default: "off (refuse)" }),
  json: booleanFlag("print { added: [{ name, from, path, files, skipped }] }"),
};

export const usage = flagsUsage("add", addFlags, "PATH|NPM-PACKAGE");

export const help: CommandHelp = {
  summary:
    "Copy skills into your project: a skill folder, a folder of skills, or an installed npm package's skills. " +
    "Each skill is validated first; symlinks inside are never followed, a skill folder reached through a symlink is " +
    "not added (add its target by name), and a PATH that is itself a symlink is followed and said so.",
  options: flagsHelp(addFlags),
  notes: ["An npm package is read from node_modules (install it first); nothing is downloaded."],
  examples: ["skillgraph add ../shared-skills/pdf", "skillgraph add @acme/agent-skills --dir skills --force"],
};

/** `skillgraph add`: validated copies of skills into `.agents/skills` (or --dir). */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { options: values, positionals } = parseFlags(addFlags, args, { positionals: true });
  const [source] = positionals;
  if (!source || positionals.length > 1) throw new UsageError("give exactly one PATH or npm package name");
  const folders = await skillFolders(source, io.cwd, io);
  const targetRoot = resolve(io.cwd, values.dir!);
  // Validate everything before copying anything.
  const plans: Array<{ from: string; name: string; to: string }> = [];
  for (const from of folders) {
    const outcome = await validateSkill(from);
    if (!outcome.success || !outcome.skill) {
      const errors = outcome.issues.filter((issue) => issue.severity === "error").map((issue) => issue.message);
      throw new CliError(
        `${from} is not a valid skill: ${errors.join("; ")} (see 'skillgraph validate ${terminalSafeLine(from)}')`,
      );
    }
    const to = join(targetRoot, outcome.skill.name);
    if (existsSync(to) && !values.force) throw new CliError(`${to} already exists (pass --force to replace it)`);
    plans.push({ from, name: outcome.skill.name, to });
  }
  await mkdir(targetRoot, { recursive: true });
  const added: Array<{ name: string; from: string; path: string; files: number; skipped: string[] }> = [];
  for (const plan of plans) {
    // Copy beside the target, then swap in: a failed copy leaves the old skill untouched.
    const staging = join(dirname(plan.to), `.${plan.name}.adding-${randomBytes(4).toString("hex")}`);
    try {
      const report = await copySkillFolder(plan.from, staging);
      if (existsSync(plan.to)) await rm(plan.to, { recursive: true, force: true });
      await rename(staging, plan.to);
      added.push({ name: plan.name, from: plan.from, path: plan.to, files: report.files, skipped: report.skipped });
      if (!values.json)
        io.stdout.write(
          `added ${terminalSafeLine(plan.name)} -> ${terminalSafeLine(plan.to)} (${report.files} file${report.files === 1 ? "" : "s"})\n`,
        );
      for (const skipped of report.skipped)
        io.stderr.write(`warning: ${terminalSafeLine(plan.name)}: skipped ${terminalSafeLine(skipped)}\n`);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw new CliError(`could not copy ${plan.from}: ${(error as Error).message}`);
    }
  }
  if (values.json) io.stdout.write(`${JSON.stringify({ added })}\n`);
  return 0;
}

/**
 * The skill folders SOURCE names: itself (has SKILL.md), the skills below it, or an installed package's skills. A PATH
 * that is a symlink is followed, and said so on stderr (the user named it); a skill folder found below it through a
 * symlink is left out with a warning naming its target, never copied silently.
 */
async function skillFolders(source: string, cwd: string, io: CliIO): Promise<string[]> {
  const path = resolve(cwd, source);
  const looksLikePath = source.startsWith(".") || source.startsWith("/") || existsSync(path);
  if (looksLikePath) {
    const real = realTarget(path);
    if (real !== undefined && real !== path && lstatSync(path).isSymbolicLink())
      io.stderr.write(`note: ${terminalSafeLine(path)} is a symlink; following it to ${terminalSafeLine(real)}\n`);
    let stats;
    try {
      stats = statSync(path);
    } catch {
      throw new CliError(`${path} does not exist`);
    }
    if (!stats.isDirectory()) {
      if (basename(path).toLowerCase() === "skill.md") return [dirname(path)];
      throw new CliError(`${path} is not a folder`);
    }
    if (existsSync(join(path, "SKILL.md")) || existsSync(join(path, "skill.md"))) return [path];
    const scan = await skillsFromDirectory(path).scan();
    const found = notThroughLinks(path, scan.candidates, io);
    if (found.length === 0) throw new CliError(`no skill found in ${path} (a skill is a folder holding a SKILL.md)`);
    return found;
  }
  // tama's `github:user/repo`, a registry digest, an http(s) SKILL.md or archive: nothing is downloaded here
  if (/^(https?|git|ssh|github|gitlab|bitbucket):/i.test(source) || source.startsWith("skill/"))
    throw new CliError(
      `'${source}' is a remote source: skillgraph add fetches nothing from the network; download or clone it, then run skillgraph add ./folder`,
    );
  const scan = await skillsFromPackage(source, { cwd }).scan();
  const found = scan.candidates.flatMap((candidate) => (candidate.kind === "disk" ? [candidate.dir] : []));
  if (found.length === 0) {
    const problem = scan.diagnostics[0]?.message;
    throw new CliError(problem ?? `npm package '${source}' has no skills`);
  }
  return found;
}

function realTarget(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The skill folders a scan of `base` found that are not reached through a symlink below it (the folder's real path is
 * the base's real path plus the same relative path); the others are reported on stderr with their target and left
 * out. The base itself may be a symlink (the user named it).
 */
function notThroughLinks(base: string, candidates: readonly SkillCandidate[], io: CliIO): string[] {
  const found: string[] = [];
  const realBase = realTarget(base) ?? base;
  for (const candidate of candidates) {
    if (candidate.kind !== "disk") continue;
    const real = realTarget(candidate.dir);
    if (real !== undefined && real === join(realBase, relative(base, candidate.dir))) {
      found.push(candidate.dir);
      continue;
    }
    io.stderr.write(
      `warning: not adding ${terminalSafeLine(candidate.dir)}: it is reached through a symlink to ` +
        `${terminalSafeLine(real ?? "a missing folder")}, which is not followed ` +
        `(run 'skillgraph add ${terminalSafeLine(real ?? candidate.dir)}' to add that folder)\n`,
    );
  }
  return found;
}
