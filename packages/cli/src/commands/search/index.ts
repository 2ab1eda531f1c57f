import { parseArgs } from "node:util";
import { createSkillRegistry } from "@skillgraph/core";
import type { CliIO } from "../../cli-io.js";
import { formatTable, truncate } from "../../output/format-table.js";
import { createStyle } from "../../output/style.js";
import { skillSourcesFromArgs } from "../../skill-sources-from-args.js";
import { UsageError } from "../../usage-error.js";

export const usage = "skillgraph search QUERY [--json] [--limit K] [--source DIR]...";

/** `skillgraph search`: ranked skills for a task description, best first; says so when nothing fits. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: "boolean" }, limit: { type: "string", default: "5" }, source: { type: "string", multiple: true } },
  });
  const query = positionals.join(" ").trim();
  if (!query) throw new UsageError("give a query");
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit <= 0) throw new UsageError(`--limit must be a positive integer, not '${values.limit}'`);
  const registry = await createSkillRegistry({ sources: skillSourcesFromArgs(values.source, io.cwd, io.env) });
  const results = registry.search(query, { limit });
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ results: results.map(({ name, score, path }) => ({ name, score, path })) })}\n`);
    return 0;
  }
  const style = createStyle(io.color);
  if (results.length === 0 || !results[0]!.confident) io.stdout.write(style.yellow("Nothing fits this query well.") + (results.length > 0 ? style.dim(" Closest:") : "") + "\n");
  const width = Math.max(30, ((io.stdout as { columns?: number }).columns ?? 120) - 40);
  io.stdout.write(`${formatTable(results.map((hit) => [style.cyan(hit.score.toFixed(3)), style.bold(hit.name), truncate(hit.description, width)]))}\n`);
  return 0;
}
