import { basename, dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { skillsFromDirectory, validateSkill, type SkillDiagnostic } from "@skillgraph/core";
import type { CliIO } from "../../cli-io.js";
import { createStyle } from "../../output/style.js";
import { UsageError } from "../../usage-error.js";

/** One line of `validate --json` output. */
interface ValidationResult {
  path: string;
  name: string | null;
  valid: boolean;
  diagnostics: Array<Pick<SkillDiagnostic, "code" | "severity" | "message">>;
}

export const usage = "skillgraph validate [--json] [--strict] PATH... | --all DIR";

/** `skillgraph validate`: checks skill folders against the spec, as the reference validator does (exit 0 valid, 1 invalid, 2 usage). */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: "boolean" }, strict: { type: "boolean" }, all: { type: "string", multiple: true } },
  });
  const folders = positionals.map((path) => {
    const absolute = resolve(io.cwd, path);
    // Like the reference CLI: a path to SKILL.md itself means its folder.
    return basename(absolute).toLowerCase() === "skill.md" ? dirname(absolute) : absolute;
  });
  for (const dir of values.all ?? []) {
    const root = resolve(io.cwd, dir);
    const scan = await skillsFromDirectory(root).scan();
    if (scan.diagnostics.some((diagnostic) => diagnostic.code === "source-missing")) throw new UsageError(`--all: ${dir} does not exist`);
    folders.push(...scan.candidates.flatMap((candidate) => (candidate.kind === "disk" ? [candidate.dir] : [])));
  }
  if (folders.length === 0) throw new UsageError("give at least one skill folder, or --all DIR");

  const results: ValidationResult[] = [];
  for (const folder of folders) {
    const outcome = await validateSkill(folder);
    const valid = outcome.success && !(values.strict && outcome.issues.some((issue) => issue.severity === "warning"));
    results.push({
      path: folder,
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
      const mark = result.valid ? style.green("✓") : style.red("✗");
      io.stdout.write(`${mark} ${style.bold(result.name ?? basename(result.path))} ${style.dim(result.path)}\n`);
      for (const diagnostic of result.diagnostics) {
        const tag = diagnostic.severity === "error" ? style.red(diagnostic.code) : style.yellow(diagnostic.code);
        io.stdout.write(`    ${tag}  ${diagnostic.message}\n`);
      }
    }
    const invalid = results.filter((result) => !result.valid).length;
    io.stdout.write(`${results.length - invalid} valid, ${invalid} invalid\n`);
  }
  return results.every((result) => result.valid) ? 0 : 1;
}
