import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { validateSkill } from "@skillgraph/core";
import type { CliIO } from "../../io/cli-io.js";
import { CliError } from "../../io/cli-error.js";
import type { CommandHelp } from "../../output/command-help.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { UsageError } from "../../io/usage-error.js";
import { z } from "zod";
import { booleanFlag, flagsHelp, flagsUsage, parseFlags, stringFlag } from "../../io/flag-table.js";

/** Every flag of `skillgraph init`, in help order. */
const initFlags = {
  dir: stringFlag("DIR", "folder to create the skill in", {
    default: ".agents/skills",
    schema: z.string().default(".agents/skills"),
  }),
  description: stringFlag("TEXT", "what the skill does and when to use it (frontmatter description)", {
    default: "a placeholder to edit (validate --strict fails on it until edited)",
  }),
  json: booleanFlag("print { name, path, skillFile, files, description, placeholder }"),
};

export const usage = flagsUsage("init", initFlags, "NAME");

export const help: CommandHelp = {
  summary:
    "Create a new skill folder that passes `skillgraph validate`: SKILL.md with frontmatter, scripts/, references/.",
  options: flagsHelp(initFlags),
  notes: [
    "NAME: lowercase letters, digits and single hyphens, at most 64 characters (the Agent Skills spec). Never overwrites.",
  ],
  examples: [
    "skillgraph init csv-cleaner",
    "skillgraph init release-notes --dir skills --description 'Write release notes from merged PRs.'",
  ],
};

/** The spec's rule for skill names. */
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** `skillgraph init`: scaffolds a valid skill and checks it with the validator. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { options: values, positionals } = parseFlags(initFlags, args, { positionals: true });
  const [name] = positionals;
  if (!name || positionals.length > 1) throw new UsageError("give exactly one skill NAME");
  if (!NAME.test(name) || name.length > 64) {
    throw new UsageError(
      `'${terminalSafeLine(name)}' is not a valid skill name: use lowercase letters, digits and single hyphens, at most 64 characters`,
    );
  }
  const description = (
    values.description ??
    `Describe what ${name} does and when to use it (this text decides when an agent loads the skill).`
  ).trim();
  if (description === "" || description.length > 1024 || /[\n\r]/.test(description))
    throw new UsageError("--description must be one line of 1 to 1024 characters");
  const dir = resolve(io.cwd, values.dir!, name);
  await mkdir(resolve(io.cwd, values.dir!), { recursive: true });
  try {
    await mkdir(dir);
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST")
      throw new CliError(`${dir} already exists; choose another NAME or --dir`);
    throw error;
  }
  const skillMd = [
    "---",
    `name: ${name}`,
    `description: ${JSON.stringify(description)}`,
    "---",
    "",
    `# ${name}`,
    "",
    "## When to use",
    "",
    "Say which tasks this skill is for.",
    "",
    "## Steps",
    "",
    "1. Explain the steps the agent follows.",
    "2. Put helper programs in `scripts/` and run them with `run_skill_script` (name them in `allowed-tools`, e.g. `Bash(python3:*)`).",
    "3. Put long reference material in `references/` and read it with `read_skill_file` when needed.",
    "",
  ].join("\n");
  await writeFile(join(dir, "SKILL.md"), skillMd, { flag: "wx" });
  await mkdir(join(dir, "scripts"));
  await mkdir(join(dir, "references"));
  await writeFile(join(dir, "references", "README.md"), `Reference material for ${name}, read on demand.\n`, {
    flag: "wx",
  });
  const outcome = await validateSkill(dir);
  if (!outcome.success) {
    await rm(dir, { recursive: true, force: true });
    throw new CliError(`the new skill did not validate: ${outcome.issues.map((issue) => issue.message).join("; ")}`);
  }
  if (values.json) {
    const payload = {
      name,
      path: dir,
      skillFile: join(dir, "SKILL.md"),
      files: ["SKILL.md", "references/README.md", "scripts/"],
      description,
      placeholder: values.description === undefined,
    };
    io.stdout.write(`${JSON.stringify(payload)}\n`);
    return 0;
  }
  io.stdout.write(
    `created ${dir}\n  SKILL.md, scripts/, references/README.md\nnext: edit the description and steps, then 'skillgraph validate --strict ${terminalSafeLine(dir)}'\n`,
  );
  return 0;
}
