import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { publishSkillsToStore } from "@skillgraph/langgraph";
import type { CliIO } from "../../cli-io.js";
import { openSkillStore } from "../../open-skill-store.js";
import { UsageError } from "../../usage-error.js";

export const usage = "skillgraph publish FOLDER --store URL [--namespace A/B] [--json]";

/** `skillgraph publish`: validates every skill under FOLDER and writes them to a shared LangGraph store (PostgreSQL). */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { store: { type: "string" }, namespace: { type: "string" }, json: { type: "boolean" } } });
  if (positionals.length !== 1) throw new UsageError("give exactly one skills folder");
  if (!values.store) throw new UsageError("--store URL is required");
  const { store, close } = await openSkillStore(values.store);
  try {
    const report = await publishSkillsToStore(store, resolve(io.cwd, positionals[0]!), values.namespace ? { namespace: values.namespace.split("/") } : {});
    if (values.json) io.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      for (const skip of report.skipped) io.stdout.write(`skipped ${skip.skill}/${skip.path} (${skip.reason})\n`);
      io.stdout.write(`published ${report.published.length} skill${report.published.length === 1 ? "" : "s"}: ${report.published.join(", ")}\n`);
    }
    return 0;
  } finally {
    await close();
  }
}
