import { publishSkillsToStore } from "@skillgraph/langgraph/store";
import type { CliIO } from "../../io/cli-io.js";
import { openSkillStore } from "../../stores/open-skill-store.js";
import { UsageError } from "../../io/usage-error.js";
import type { CommandHelp } from "../../output/command-help.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { checkSkillsFolder } from "../../stores/skill-sources-from-args.js";
import { z } from "zod";
import { booleanFlag, flagsHelp, flagsUsage, parseFlags, stringFlag } from "../../io/flag-table.js";

/** Every flag of `skillgraph publish`, in help order. */
const publishFlags = {
  store: stringFlag("URL", "postgres://... (?schema=S picks the schema; tables are created when missing)", {
    default: "required",
    required: true,
    schema: z.string({ error: "--store URL is required" }).min(1, { error: "--store URL is required" }),
  }),
  namespace: stringFlag("A/B", "store namespace to publish under", { default: "the store source's default" }),
  json: booleanFlag("print { published, skipped, version }"),
};

export const usage = flagsUsage("publish", publishFlags, "FOLDER");

export const help: CommandHelp = {
  summary:
    "Validate every skill under FOLDER strictly (any error: nothing is written) and publish them to a shared LangGraph " +
    "store, where skillsFromStore readers pick them up on their next reload.",
  options: flagsHelp(publishFlags),
  examples: [
    "skillgraph publish examples/skills --store postgres://localhost/skills",
    "skillgraph publish skills --store 'postgres://db/app?schema=agents' --namespace team/skills --json",
  ],
};

/** `skillgraph publish`: validates every skill under FOLDER and writes them to a shared LangGraph store (PostgreSQL). */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { options: values, positionals } = parseFlags(publishFlags, args, { positionals: true });
  if (positionals.length !== 1) throw new UsageError("give exactly one skills folder");
  const folder = checkSkillsFolder(positionals[0]!, io.cwd);
  const { store, close } = await openSkillStore(values.store);
  try {
    const report = await publishSkillsToStore(
      store,
      folder,
      values.namespace ? { namespace: values.namespace.split("/") } : {},
    );
    if (values.json) io.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      for (const skip of report.skipped)
        io.stdout.write(`${terminalSafeLine(`skipped ${skip.skill}/${skip.path} (${skip.reason})`)}\n`);
      io.stdout.write(
        `published ${report.published.length} skill${report.published.length === 1 ? "" : "s"}: ${report.published.join(", ")}\n`,
      );
    }
    return 0;
  } finally {
    await close();
  }
}
