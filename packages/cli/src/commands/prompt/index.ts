import { existsSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createSkillRegistry, loadSkill, readSkillProperties, renderSkillsPrompt, toPrompt, type SkillMetadata } from "@skillgraph/core";
import type { CliIO } from "../../cli-io.js";
import { skillSourcesFromArgs } from "../../skill-sources-from-args.js";
import { UsageError } from "../../usage-error.js";

export const usage = "skillgraph prompt [--format xml|markdown] [--budget N] [PATH... | --source DIR...]";

/**
 * `skillgraph prompt`: the skills section an agent would see. With folders and `--format xml` (the default) and no
 * budget it prints exactly what the reference's `to-prompt` prints, in argument order.
 */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: "string", default: "xml" }, budget: { type: "string" }, source: { type: "string", multiple: true } },
  });
  const format = values.format;
  if (format !== "xml" && format !== "markdown") throw new UsageError(`--format must be xml or markdown, not '${format}'`);
  const budget = values.budget === undefined ? undefined : Number(values.budget);
  if (budget !== undefined && (!Number.isInteger(budget) || budget <= 0)) throw new UsageError(`--budget must be a positive number of characters, not '${values.budget}'`);

  if (positionals.length > 0 && format === "xml" && budget === undefined) {
    const entries = [];
    for (const path of positionals) {
      const dir = realpathSync(resolve(io.cwd, path));
      const properties = await readSkillProperties(dir);
      const location = existsSync(join(dir, "SKILL.md")) ? join(dir, "SKILL.md") : join(dir, "skill.md");
      entries.push({ name: properties.name, description: properties.description, location });
    }
    io.stdout.write(`${toPrompt(entries)}\n`);
    return 0;
  }

  let skills: SkillMetadata[];
  if (positionals.length > 0) {
    skills = [];
    for (const path of positionals) {
      skills.push(await loadSkill(resolve(io.cwd, path), { origin: { sourceId: "cli", layer: "explicit", kind: "directory" } }));
    }
  } else {
    skills = (await createSkillRegistry({ sources: skillSourcesFromArgs(values.source, io.cwd, io.env) })).list();
  }
  const { text, report } = renderSkillsPrompt(skills, { format, ...(budget === undefined ? {} : { budget: { maxChars: budget } }) });
  io.stdout.write(`${text}\n`);
  if (report.level !== "full") io.stderr.write(`budget: rendered at level '${report.level}' (${report.chars} chars)\n`);
  return 0;
}
