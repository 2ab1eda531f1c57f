import { SkillNotFoundError } from "@skillgraph/core";
import type { CliIO } from "../../io/cli-io.js";
import { CliError } from "../../io/cli-error.js";
import type { CommandHelp } from "../../output/command-help.js";
import { createStyle } from "../../output/style.js";
import { terminalSafe, terminalSafeLine } from "../../output/terminal-safe.js";
import { SKILLS_FLAG, loadSkillsFromArgs } from "../../stores/skill-sources-from-args.js";
import { UsageError } from "../../io/usage-error.js";
import { booleanFlag, flagsHelp, flagsUsage, parseFlags } from "../../io/flag-table.js";

/** Every flag of `skillgraph show`, in help order. */
const showFlags = {
  skills: SKILLS_FLAG,
  json: booleanFlag("print the skill as JSON (path = folder, skillFile = SKILL.md, body, files)"),
  verbose: booleanFlag("list every skill that could not be loaded"),
};

export const usage = flagsUsage("show", showFlags, "NAME");

export const help: CommandHelp = {
  summary: "Show one skill: metadata, diagnostics, files and the SKILL.md body.",
  options: flagsHelp(showFlags),
  examples: [
    "skillgraph show release-notes --skills examples/skills",
    "skillgraph show report-builder --json --skills examples/skills",
  ],
};

/** `skillgraph show`: one skill's metadata, diagnostics, files and body. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { options: values, positionals } = parseFlags(showFlags, args, { positionals: true });
  const [name] = positionals;
  if (!name || positionals.length > 1) throw new UsageError("give exactly one skill name");
  const registry = await loadSkillsFromArgs(values.skills, io, {
    verbose: values.verbose === true,
    report: !values.json,
  });
  const skill = registry.get(name);
  if (!skill) {
    throw new CliError(
      new SkillNotFoundError({
        skillName: name,
        suggestions: registry.search(name, { limit: 3 }).map((hit) => hit.name),
      }).message,
    );
  }
  const [body, files] = await Promise.all([registry.readBody(name), registry.listFiles(name)]);
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ ...skill, path: skill.dir, skillFile: skill.file, body, files })}\n`);
    return 0;
  }
  const style = createStyle(io.color);
  const line = terminalSafeLine;
  io.stdout.write(`${style.bold(line(skill.name))}  ${style.dim(line(skill.file))}\n${line(skill.description)}\n`);
  if (skill.license) io.stdout.write(`${style.dim("license:")} ${line(skill.license)}\n`);
  if (skill.compatibility) io.stdout.write(`${style.dim("compatibility:")} ${line(skill.compatibility)}\n`);
  if (skill.allowedTools.length > 0)
    io.stdout.write(`${style.dim("allowed-tools:")} ${line(skill.allowedTools.join(" "))}\n`);
  for (const diagnostic of skill.diagnostics)
    io.stdout.write(style.yellow(line(`${diagnostic.severity}: ${diagnostic.code}: ${diagnostic.message}`)) + "\n");
  if (files.length > 0)
    io.stdout.write(
      `${style.dim("files:")}\n${files.map((file) => `  ${line(file.path)} ${style.dim(`(${file.size} B)`)}`).join("\n")}\n`,
    );
  io.stdout.write(`\n${terminalSafe(body)}\n`);
  return 0;
}
