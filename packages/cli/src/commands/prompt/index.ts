import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadSkill, readSkillProperties, type SkillMetadata } from "@skillgraph/core";
import { renderSkillsPrompt, toPrompt, type RenderSkillsPromptOptions } from "@skillgraph/core/prompt";
import type { CliIO } from "../../io/cli-io.js";
import type { CommandHelp } from "../../output/command-help.js";
import { terminalSafe } from "../../output/terminal-safe.js";
import { checkSkillsFolder, loadSkillsFromArgs } from "../../stores/skill-sources-from-args.js";
import { UsageError } from "../../io/usage-error.js";

export const usage =
  "skillgraph prompt [--chat [--system TEXT]] [--format xml|markdown] [--budget N] [--json] [--verbose] [PATH... | --skills DIR...]";

export const help: CommandHelp = {
  summary:
    "Print the skills section of the system prompt. With --chat, print exactly the system message `skillgraph chat` sends " +
    "on a new session (same system prompt, same preamble, same budget).",
  options: [
    {
      flags: "--chat",
      description: "print the whole system message chat sends (system prompt + preamble + budgeted list)",
      default: "off",
    },
    {
      flags: "--system TEXT",
      description: "with --chat: the system prompt chat would get from --system",
      default: "chat's default system prompt",
    },
    { flags: "--format FORMAT", description: "xml or markdown", default: "xml" },
    {
      flags: "--budget N",
      description: "fit the list into N characters (dropping detail, then skills)",
      default: "no budget",
    },
    {
      flags: "--skills DIR",
      description: "read skills from DIR (repeatable)",
      default: "the conventional skill folders",
    },
    {
      flags: "--json",
      description:
        "print { prompt (the exact text), skills (names), chars, level (full, or the level the budget cut it to; with --chat, chat's budget) }",
      default: "off",
    },
    { flags: "--verbose", description: "list every skill that could not be loaded", default: "off" },
  ],
  notes: ["With PATH arguments (skill folders) and no --budget, prints exactly what the reference `to-prompt` prints."],
  examples: [
    "skillgraph prompt --chat --skills examples/skills",
    "skillgraph prompt examples/skills/release-notes examples/skills/report-builder",
  ],
};

/**
 * `skillgraph prompt`: the skills section an agent would see. With folders and `--format xml` (the default) and no
 * budget it prints exactly what the reference's `to-prompt` prints, in argument order; with `--chat`, chat's system message.
 */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      format: { type: "string", default: "xml" },
      budget: { type: "string" },
      skills: { type: "string", multiple: true },
      chat: { type: "boolean" },
      system: { type: "string" },
      verbose: { type: "boolean" },
      json: { type: "boolean" },
    },
  });
  // On a terminal the prompt is escaped (skill text may hold escape sequences); piped, it is exactly what the model gets.
  // With --json: one object holding the exact text (JSON escapes it), the skills in it and its size.
  const print = (text: string, names: readonly string[], level = "full") =>
    io.stdout.write(
      values.json
        ? `${JSON.stringify({ prompt: text, skills: names, chars: text.length, level })}\n`
        : `${io.isTTY ? terminalSafe(text) : text}\n`,
    );
  const format = values.format;
  if (format !== "xml" && format !== "markdown")
    throw new UsageError(`--format must be xml or markdown, not '${format}'`);
  const budget = values.budget === undefined ? undefined : Number(values.budget);
  if (budget !== undefined && (!Number.isInteger(budget) || budget <= 0))
    throw new UsageError(`--budget must be a positive number of characters, not '${values.budget}'`);
  if (values.system !== undefined && !values.chat) throw new UsageError("--system needs --chat");

  if (values.chat) {
    if (positionals.length > 0) throw new UsageError("--chat reads --skills folders, not skill PATHs");
    const registry = await loadSkillsFromArgs(values.skills, io, { verbose: values.verbose === true });
    const { previewChatSystemText } = await import("../chat/create-chat-agent.js");
    // chat renders the list with the interceptor's default options (8 000 characters): the same render says the level
    const { report } = renderSkillsPrompt(registry.list());
    print(
      await previewChatSystemText({
        skills: registry,
        ...(values.system === undefined ? {} : { systemPrompt: values.system }),
      }),
      registry.list().map((skill) => skill.name),
      registry.list().length === 0 ? "full" : report.level,
    );
    return 0;
  }

  const folders = positionals.map((path) => checkSkillsFolder(path, io.cwd, "skill folder"));
  if (folders.length > 0 && format === "xml" && budget === undefined) {
    const entries = [];
    for (const dir of folders) {
      const properties = await readSkillProperties(dir);
      const location = existsSync(join(dir, "SKILL.md")) ? join(dir, "SKILL.md") : join(dir, "skill.md");
      entries.push({ name: properties.name, description: properties.description, location });
    }
    print(
      toPrompt(entries),
      entries.map((entry) => entry.name),
    );
    return 0;
  }

  let skills: SkillMetadata[];
  if (folders.length > 0) {
    skills = [];
    for (const dir of folders)
      skills.push(await loadSkill(dir, { origin: { sourceId: "cli", layer: "explicit", kind: "directory" } }));
  } else {
    skills = (await loadSkillsFromArgs(values.skills, io, { verbose: values.verbose === true })).list();
  }
  // no --budget: no budget at all (the renderer's own default would cut the list at 8 000 characters)
  const options: RenderSkillsPromptOptions = {
    format,
    budget: { maxChars: budget ?? Number.POSITIVE_INFINITY },
  };
  const { text, report } = renderSkillsPrompt(skills, options);
  print(
    text,
    skills.map((skill) => skill.name),
    report.level,
  );
  if (report.level !== "full" && !values.json)
    io.stderr.write(`note: budget: rendered at level '${report.level}' (${report.chars} chars)\n`);
  return 0;
}
