import { existsSync, statSync } from "node:fs";
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
  notes: ["Exit codes: 0 all valid, 1 some invalid or a path is wrong, 2 usage error. Flags may come in any order."],
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
  for (const path of positionals) {
    let absolute = resolve(io.cwd, path);
    // Like the reference CLI: a path to SKILL.md itself means its folder.
    if (!values.all && basename(absolute).toLowerCase() === "skill.md" && existsSync(absolute))
      absolute = dirname(absolute);
    const dir = checkSkillsFolder(absolute, io.cwd, values.all ? "skills folder" : "skill folder");
    if (!values.all) {
      if (!hasSkillFile(dir)) {
        const inside = (await skillsFromDirectory(dir).scan()).candidates.length;
        if (inside > 0)
          throw new CliError(
            `${dir} has no SKILL.md but holds ${inside} skill${inside === 1 ? "" : "s"}: did you mean 'skillgraph validate --all ${path}'?`,
          );
      }
      folders.push(dir);
      continue;
    }
    const scan = await skillsFromDirectory(dir).scan();
    const found = scan.candidates.flatMap((candidate) => (candidate.kind === "disk" ? [candidate.dir] : []));
    if (found.length === 0) throw new CliError(`no skill found in ${dir} (a skill is a folder holding a SKILL.md)`);
    folders.push(...found);
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

function hasSkillFile(dir: string): boolean {
  return ["SKILL.md", "skill.md"].some((file) => {
    try {
      return statSync(join(dir, file)).isFile();
    } catch {
      return false;
    }
  });
}
