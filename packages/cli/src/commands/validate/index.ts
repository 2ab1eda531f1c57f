import { checkedOptions } from "../../io/checked-options.js";
import type { CliIO } from "../../io/cli-io.js";
import { flagsHelp, flagsUsage } from "../../io/flag-table.js";
import type { CommandHelp } from "../../output/command-help.js";
import { printValidation } from "./print-validation.js";
import { skillFoldersToValidate } from "./skill-folders-to-validate.js";
import { readValidateArgs, validateFlags, validateOptionsSchema } from "./validate-options.js";
import { validateFolder, type ValidationResult } from "./validation-result.js";

export const usage = flagsUsage("validate", validateFlags, "PATH...");

export const help: CommandHelp = {
  summary: "Check skill folders against the Agent Skills spec, as the reference validator does.",
  options: flagsHelp(validateFlags),
  notes: [
    "Every PATH gets a result, with --json too: a folder without a regular SKILL.md is invalid (skill-md-missing,",
    "not-a-regular-file). With --all, folders that cannot be opened and dangling links are invalid entries too.",
    "Exit codes: 0 all valid, 1 some invalid, unreadable or a path is wrong, 2 usage error. Flags may come in any order.",
  ],
  examples: ["skillgraph validate examples/skills/report-builder", "skillgraph validate --all --json examples/skills"],
};

/** `skillgraph validate`: checks skill folders against the spec, as the reference validator does (exit 0 valid, 1 invalid, 2 usage). */
export async function run(args: string[], io: CliIO): Promise<number> {
  const options = checkedOptions(validateOptionsSchema, readValidateArgs(args));
  const { folders, unopened } = await skillFoldersToValidate(options.paths, options.all, io);
  const results: ValidationResult[] = [];
  for (const folder of folders) results.push(await validateFolder(folder, options.dialect, options.strict));
  results.push(...unopened);
  if (options.json) io.stdout.write(`${JSON.stringify({ results })}\n`);
  else printValidation(results, io);
  return results.every((result) => result.valid) ? 0 : 1;
}
