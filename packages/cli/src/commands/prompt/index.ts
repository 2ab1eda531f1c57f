import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadSkill, readSkillProperties, type SkillMetadata } from "@skillgraph/core";
import { renderSkillsPrompt, toPrompt, type RenderSkillsPromptOptions } from "@skillgraph/core/prompt";
import { z } from "zod";
import type { CliIO } from "../../io/cli-io.js";
import type { CommandHelp } from "../../output/command-help.js";
import { terminalSafe } from "../../output/terminal-safe.js";
import { SKILLS_FLAG, checkSkillsFolder, loadSkillsFromArgs } from "../../stores/skill-sources-from-args.js";
import { checkedOptions } from "../../io/checked-options.js";
import { booleanFlag, flagsHelp, flagsSchema, flagsUsage, readFlags, stringFlag } from "../../io/flag-table.js";

/** Every flag of `skillgraph prompt`, in help order. */
const promptFlags = {
  chat: booleanFlag("print the whole system message chat sends (system prompt + preamble + budgeted list)"),
  system: stringFlag("TEXT", "with --chat: the system prompt chat would get from --system", {
    default: "chat's default system prompt",
  }),
  format: stringFlag("FORMAT", "xml or markdown", {
    default: "xml",
    schema: z
      .enum(["xml", "markdown"], {
        error: (issue) => `--format must be xml or markdown, not '${String(issue.input)}'`,
      })
      .default("xml"),
  }),
  budget: stringFlag("N", "fit the list into N characters (dropping detail, then skills)", {
    default: "no budget",
    schema: z
      .string()
      .refine((text) => Number.isInteger(Number(text)) && Number(text) > 0, {
        error: (issue) => `--budget must be a positive number of characters, not '${String(issue.input)}'`,
      })
      .transform((text) => Number(text))
      .optional(),
  }),
  skills: SKILLS_FLAG,
  json: booleanFlag(
    "print { prompt (the exact text), skills (names), chars, level (full, or the level the budget cut it to; with --chat, chat's budget) }",
  ),
  verbose: booleanFlag("list every skill that could not be loaded"),
};

/** The checked options and skill PATHs: the table's schema, then the combinations that make no sense. */
const promptCommandSchema = z
  .object({ positionals: z.array(z.string()), values: flagsSchema(promptFlags) })
  .superRefine(({ positionals, values }, context) => {
    const problem = (message: string) => context.addIssue({ code: "custom", message });
    if (values.system !== undefined && !values.chat) problem("--system needs --chat");
    else if (values.chat && positionals.length > 0) problem("--chat reads --skills folders, not skill PATHs");
  });

export const usage = flagsUsage("prompt", promptFlags, "[PATH...]");

export const help: CommandHelp = {
  summary:
    "Print the skills section of the system prompt. With --chat, print exactly the system message `skillgraph chat` sends " +
    "on a new session (same system prompt, same preamble, same budget).",
  options: flagsHelp(promptFlags),
  notes: [
    "With PATH arguments (skill folders) and no --budget, prints exactly what the reference `to-prompt` prints.",
    "PATH arguments and --skills folders are read instead of each other: with PATHs, --skills is not read.",
  ],
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
  const {
    positionals,
    values: { format, budget, ...values },
  } = checkedOptions(promptCommandSchema, readFlags(promptFlags, args, { positionals: true }));
  // On a terminal the prompt is escaped (skill text may hold escape sequences); piped, it is exactly what the model gets.
  // With --json: one object holding the exact text (JSON escapes it), the skills in it and its size.
  const print = (text: string, names: readonly string[], level = "full") =>
    io.stdout.write(
      values.json
        ? `${JSON.stringify({ prompt: text, skills: names, chars: text.length, level })}\n`
        : `${io.isTTY ? terminalSafe(text) : text}\n`,
    );

  if (values.chat) {
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
