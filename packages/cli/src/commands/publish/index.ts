import { parseArgs } from "node:util";
import { publishSkillsToStore } from "@skillgraph/langgraph/store";
import type { CliIO } from "../../io/cli-io.js";
import { openSkillStore } from "../../stores/open-skill-store.js";
import { UsageError } from "../../io/usage-error.js";
import type { CommandHelp } from "../../output/command-help.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { checkSkillsFolder } from "../../stores/skill-sources-from-args.js";

export const usage = "skillgraph publish FOLDER --store URL [--namespace A/B] [--json]";

export const help: CommandHelp = {
  summary:
    "Validate every skill under FOLDER strictly (any error: nothing is written) and publish them to a shared LangGraph " +
    "store, where skillsFromStore readers pick them up on their next reload.",
  options: [
    {
      flags: "--store URL",
      description: "postgres://... (?schema=S picks the schema; tables are created when missing)",
      default: "required",
    },
    {
      flags: "--namespace A/B",
      description: "store namespace to publish under",
      default: "the store source's default",
    },
    { flags: "--json", description: "print { published, skipped, version }", default: "off" },
  ],
  examples: [
    "skillgraph publish examples/skills --store postgres://localhost/skills",
    "skillgraph publish skills --store 'postgres://db/app?schema=agents' --namespace team/skills --json",
  ],
};

/** `skillgraph publish`: validates every skill under FOLDER and writes them to a shared LangGraph store (PostgreSQL). */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { store: { type: "string" }, namespace: { type: "string" }, json: { type: "boolean" } },
  });
  if (positionals.length !== 1) throw new UsageError("give exactly one skills folder");
  if (!values.store) throw new UsageError("--store URL is required");
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
