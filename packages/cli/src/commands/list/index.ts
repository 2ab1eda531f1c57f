import { parseArgs } from "node:util";
import { createSkillRegistry } from "@skillgraph/core";
import type { CliIO } from "../../cli-io.js";
import { formatTable, truncate } from "../../output/format-table.js";
import { createStyle } from "../../output/style.js";
import { skillSourcesFromArgs } from "../../skill-sources-from-args.js";
import { openSkillStore } from "../../open-skill-store.js";

export const usage = "skillgraph list [--json] [--source DIR]... [--store URL]";

/** `skillgraph list`: every skill the sources hold (name, description, origin, diagnostics), and what was shadowed. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: "boolean" }, source: { type: "string", multiple: true }, store: { type: "string" } } });
  // --store URL: the skills published to a shared store (alone, unless --source folders are given too).
  const opened = values.store ? await openSkillStore(values.store) : undefined;
  const folders = opened && !values.source ? [] : skillSourcesFromArgs(values.source, io.cwd, io.env);
  const storeSources = opened ? [(await import("@skillgraph/langgraph")).skillsFromStore(opened.store)] : [];
  const registry = await createSkillRegistry({ sources: [...folders, ...storeSources] }).finally(() => opened?.close());
  const skills = registry.list();
  if (values.json) {
    const payload = {
      skills: skills.map((skill) => ({
        name: skill.name,
        description: skill.description,
        path: skill.file,
        layer: skill.origin.layer,
        source: skill.origin.sourceId,
        diagnostics: skill.diagnostics.map(({ code, severity, message }) => ({ code, severity, message })),
      })),
      shadowed: registry.shadowed(),
      diagnostics: registry.diagnostics().map(({ code, severity, message }) => ({ code, severity, message })),
    };
    io.stdout.write(`${JSON.stringify(payload)}\n`);
    return 0;
  }
  const style = createStyle(io.color);
  if (skills.length === 0) {
    io.stdout.write("No skills found. Looked in .agents/skills, .claude/skills, skills/ and ~/.agents/skills, ~/.claude/skills, ~/.codex/skills (use --source DIR).\n");
    return 0;
  }
  const width = Math.max(30, ((io.stdout as { columns?: number }).columns ?? 120) - 50);
  const rows = skills.map((skill) => {
    const problems = skill.diagnostics.filter((d) => d.severity === "error").length;
    return [style.bold(skill.name), truncate(skill.description, width), style.dim(skill.origin.layer), problems > 0 ? style.yellow(`${problems} issue${problems > 1 ? "s" : ""}`) : ""];
  });
  io.stdout.write(`${formatTable(rows)}\n`);
  for (const shadow of registry.shadowed()) {
    io.stdout.write(style.dim(`shadowed: ${shadow.name} at ${shadow.shadowed.file} (${shadow.shadowed.origin.layer}) by ${shadow.winner.file} (${shadow.winner.origin.layer})\n`));
  }
  for (const diagnostic of registry.diagnostics()) io.stdout.write(style.yellow(`${diagnostic.code}: ${diagnostic.message}\n`));
  io.stdout.write(style.dim(`${skills.length} skill${skills.length === 1 ? "" : "s"}\n`));
  return 0;
}
