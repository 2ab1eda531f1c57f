import { dirname } from "node:path";
import { createSearchIndex } from "@skillgraph/core/search";
import type { CliIO } from "../../io/cli-io.js";
import type { CommandHelp } from "../../output/command-help.js";
import { formatTable, terminalColumns, truncate, visibleWidth } from "../../output/format-table.js";
import { createStyle } from "../../output/style.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { SKILLS_FLAG, loadSkillsFromArgs } from "../../stores/skill-sources-from-args.js";
import { UsageError } from "../../io/usage-error.js";
import { z } from "zod";
import { booleanFlag, flagsHelp, flagsUsage, listFlag, parseFlags, stringFlag } from "../../io/flag-table.js";

/** Every flag of `skillgraph search`, in help order. */
const searchFlags = {
  limit: stringFlag("K", "show at most K results", {
    default: "5",
    schema: z
      .string()
      .default("5")
      .refine((text) => Number.isInteger(Number(text)) && Number(text) > 0, {
        error: (issue) => `--limit must be a positive integer, not '${String(issue.input)}'`,
      })
      .transform((text) => Number(text)),
  }),
  also: listFlag(
    "PHRASING",
    "another phrasing of the same need, in a skill author's words (task, tools, file formats); repeatable: fused with QUERY as the search_skills tool does",
    { default: "QUERY alone" },
  ),
  json: booleanFlag("print { threshold, margin, confident, results: [{ name, score, confident, path, skillFile }] }"),
  skills: SKILLS_FLAG,
  verbose: booleanFlag("list every skill that could not be loaded"),
};

export const usage = flagsUsage("search", searchFlags, "QUERY");

export const help: CommandHelp = {
  summary:
    "Rank skills for a task description, best first; says so when no skill is a clear fit (the first result's calibrated confidence under the threshold).",
  options: flagsHelp(searchFlags),
  examples: [
    "skillgraph search 'check my database migration before I merge it' --skills examples/skills",
    "skillgraph search --json --limit 3 'summarise a csv'",
    "skillgraph search 'get my thing live on the internet' --also 'deploy web app' --also 'Vercel deployment'",
  ],
};

/** `skillgraph search`: ranked skills for a task description, best first; says so when nothing fits. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { options: values, positionals } = parseFlags(searchFlags, args, { positionals: true });
  const request = positionals.join(" ").trim();
  if (!request) throw new UsageError("give a query");
  // The request as written first, then its rewrites: one search over every phrasing, as the search_skills tool does.
  const query = values.also.length > 0 ? [request, ...values.also] : request;
  const { limit } = values;
  const registry = await loadSkillsFromArgs(values.skills, io, {
    verbose: values.verbose === true,
    report: !values.json,
  });
  const results = registry.search(query, { limit });
  const confident = results.length > 0 && results[0]!.confident;
  if (values.json) {
    // The registry's index uses core's defaults; an empty index reports the same ones.
    const defaults = createSearchIndex([]);
    const payload = {
      threshold: defaults.confidenceThreshold,
      margin: defaults.confidenceMargin,
      confident,
      results: results.map(({ name, score, path, confident: fits }) => ({
        name,
        score,
        confident: fits,
        path: path ? dirname(path) : "",
        skillFile: path,
      })),
    };
    io.stdout.write(`${JSON.stringify(payload)}\n`);
    return 0;
  }
  const style = createStyle(io.color);
  if (!confident)
    io.stdout.write(
      style.yellow("No skill is a clear fit for this query.") +
        (results.length > 0 ? style.dim(" Closest (may not fit):") : "") +
        "\n",
    );
  if (results.length === 0) return 0;
  const names = results.map((hit) => terminalSafeLine(hit.name));
  const width = Math.max(
    20,
    terminalColumns(io.stdout, io.env) - Math.max(...names.map((name) => visibleWidth(name))) - 5 - 4,
  );
  io.stdout.write(
    `${formatTable(results.map((hit, index) => [style.cyan(hit.score.toFixed(3)), style.bold(names[index]!), truncate(terminalSafeLine(hit.description), width)]))}\n`,
  );
  return 0;
}
