import { existsSync, lstatSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  SKILL_DIALECTS,
  skillsFromDirectory,
  validateSkill,
  type SkillDiagnostic,
  type SkillDialect,
} from "@skillgraph/core";
import type { CliIO } from "../../cli-io.js";
import { CliError } from "../../cli-error.js";
import type { CommandHelp } from "../../output/command-help.js";
import { createStyle } from "../../output/style.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { checkSkillsFolder } from "../../skill-sources-from-args.js";
import { UsageError } from "../../usage-error.js";

/** One line of `validate --json` output. */
interface ValidationResult {
  /** The skill folder. */
  path: string;
  /** Its SKILL.md (null when there is none). */
  skillFile: string | null;
  name: string | null;
  valid: boolean;
  diagnostics: Array<Pick<SkillDiagnostic, "code" | "severity" | "message">>;
}

export const usage = "skillgraph validate [--json] [--strict] [--dialect NAME] PATH... | --all DIR...";

export const help: CommandHelp = {
  summary: "Check skill folders against the Agent Skills spec, as the reference validator does.",
  options: [
    {
      flags: "--all",
      description: "treat each DIR as a folder of skills and validate every skill in it",
      default: "off",
    },
    { flags: "--strict", description: "warnings make a skill invalid too", default: "off" },
    {
      flags: "--dialect NAME",
      description:
        "accept another runtime's SKILL.md dialect: tama (tama:, tools:, depends:), spring (allowed_tools), claude (model, argument-hint, ...) or any; its keys and flow-style lists get a dialect-field note, not an error",
      default: "reference (the reference validator's verdicts)",
    },
    {
      flags: "--json",
      description: "print { results: [{ path (folder), skillFile, name, valid, diagnostics }] }",
      default: "off",
    },
  ],
  notes: [
    "Every PATH gets a result, with --json too: a folder without a regular SKILL.md is invalid (skill-md-missing,",
    "not-a-regular-file). With --all, folders that cannot be opened and dangling links are invalid entries too.",
    "Exit codes: 0 all valid, 1 some invalid, unreadable or a path is wrong, 2 usage error. Flags may come in any order.",
  ],
  examples: ["skillgraph validate examples/skills/report-builder", "skillgraph validate --all --json examples/skills"],
};

/** `skillgraph validate`: checks skill folders against the spec, as the reference validator does (exit 0 valid, 1 invalid, 2 usage). */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: "boolean" },
      strict: { type: "boolean" },
      all: { type: "boolean" },
      dialect: { type: "string" },
    },
  });
  const dialect = (values.dialect ?? "reference") as SkillDialect;
  if (!SKILL_DIALECTS.includes(dialect))
    throw new UsageError(`--dialect must be one of ${SKILL_DIALECTS.join(", ")}, not '${values.dialect}'`);
  if (positionals.length === 0)
    throw new UsageError(
      values.all ? "--all needs a folder of skills" : "give at least one skill folder, or --all DIR",
    );
  const folders: string[] = [];
  /** Entries a scan could not open (unreadable folders, dangling links): reported as invalid results. */
  const unopened: ValidationResult[] = [];
  for (const path of positionals) {
    let absolute = resolve(io.cwd, path);
    // Like the reference CLI: a path to SKILL.md itself means its folder.
    if (!values.all && basename(absolute).toLowerCase() === "skill.md" && existsSync(absolute))
      absolute = dirname(absolute);
    if (!values.all) {
      // A missing path or a file is a result too (skill-dir-missing, skill-dir-not-directory), as the reference says.
      const dir = absolute;
      // Always a result (skill-md-missing, not-a-regular-file, ...); a folder that only holds skills gets a hint too.
      if (isFolder(dir) && !hasSkillFileEntry(dir)) {
        const inside = (await skillsFromDirectory(dir).scan()).candidates.length;
        if (inside > 0)
          io.stderr.write(
            `hint: ${terminalSafeLine(dir)} has no SKILL.md but holds ${inside} skill${inside === 1 ? "" : "s"}: did you mean 'skillgraph validate --all ${terminalSafeLine(path)}'?\n`,
          );
      }
      folders.push(dir);
      continue;
    }
    const dir = checkSkillsFolder(absolute, io.cwd, "skills folder");
    const scan = await skillsFromDirectory(dir).scan();
    const found = scan.candidates.flatMap((candidate) => (candidate.kind === "disk" ? [candidate.dir] : []));
    const problems = scanProblems(scan.diagnostics);
    for (const warning of scan.diagnostics.filter((d) => d.severity === "warning" && !isUnopened(d)))
      io.stderr.write(`warning: ${warning.code}: ${terminalSafeLine(warning.message)}\n`);
    if (found.length === 0 && problems.length === 0)
      throw new CliError(`no skill found in ${dir} (a skill is a folder holding a SKILL.md)`);
    folders.push(...found);
    unopened.push(...problems);
  }

  const results: ValidationResult[] = [];
  for (const folder of folders) {
    const outcome = await validateSkill(folder, { dialect });
    // Under a dialect its notes are what was asked for: --strict does not count them.
    const strictFailure = outcome.issues.some(
      (issue) => issue.severity === "warning" && !(dialect !== "reference" && issue.code === "dialect-field"),
    );
    const valid = outcome.success && !(values.strict && strictFailure);
    const skillFile =
      ["SKILL.md", "skill.md"].map((file) => join(folder, file)).find((file) => existsSync(file)) ?? null;
    results.push({
      path: folder,
      skillFile,
      name: outcome.skill?.name ?? null,
      valid,
      diagnostics: outcome.issues.map(({ code, severity, message }) => ({ code, severity, message })),
    });
  }
  results.push(...unopened);

  if (values.json) {
    io.stdout.write(`${JSON.stringify({ results })}\n`);
  } else {
    const style = createStyle(io.color);
    for (const result of results) {
      const mark = result.valid ? style.green("✓ ok") : style.red("✗ invalid");
      io.stdout.write(
        `${mark} ${style.bold(terminalSafeLine(result.name ?? basename(result.path)))} ${style.dim(terminalSafeLine(result.path))}\n`,
      );
      for (const diagnostic of result.diagnostics) {
        const tag =
          diagnostic.severity === "error"
            ? style.red(`error: ${diagnostic.code}`)
            : style.yellow(`warning: ${diagnostic.code}`);
        io.stdout.write(`    ${tag}  ${terminalSafeLine(diagnostic.message)}\n`);
      }
    }
    const invalid = results.filter((result) => !result.valid).length;
    io.stdout.write(`${results.length - invalid} valid, ${invalid} invalid\n`);
  }
  return results.every((result) => result.valid) ? 0 : 1;
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

/** A scan diagnostic that means "could not open this": an unreadable folder, a dangling folder or SKILL.md link. */
function isUnopened(diagnostic: SkillDiagnostic): boolean {
  return ["source-unreadable", "source-dangling-link", "skill-md-missing"].includes(diagnostic.code);
}

/** The scan's unopened entries as invalid results, one per path. */
function scanProblems(diagnostics: readonly SkillDiagnostic[]): ValidationResult[] {
  return diagnostics.filter(isUnopened).map((diagnostic) => {
    const danglingSkillFile = diagnostic.code === "skill-md-missing";
    return {
      path: danglingSkillFile ? dirname(diagnostic.path) : diagnostic.path,
      skillFile: danglingSkillFile ? diagnostic.path : null,
      name: null,
      valid: false,
      diagnostics: [{ code: diagnostic.code, severity: "error", message: diagnostic.message }],
    };
  });
}
