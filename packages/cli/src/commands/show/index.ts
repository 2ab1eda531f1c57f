import { parseArgs } from "node:util";
import { createSkillRegistry, SkillNotFoundError } from "@skillgraph/core";
import type { CliIO } from "../../cli-io.js";
import { createStyle } from "../../output/style.js";
import { skillSourcesFromArgs } from "../../skill-sources-from-args.js";
import { UsageError } from "../../usage-error.js";

export const usage = "skillgraph show NAME [--json] [--source DIR]...";

/** `skillgraph show`: one skill's metadata, diagnostics, files and body. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: "boolean" }, source: { type: "string", multiple: true } } });
  const [name] = positionals;
  if (!name || positionals.length > 1) throw new UsageError("give exactly one skill name");
  const registry = await createSkillRegistry({ sources: skillSourcesFromArgs(values.source, io.cwd, io.env) });
  const skill = registry.get(name);
  if (!skill) {
    io.stderr.write(`${new SkillNotFoundError({ skillName: name, suggestions: registry.search(name, { limit: 3 }).map((hit) => hit.name) }).message}\n`);
    return 1;
  }
  const [body, files] = await Promise.all([registry.readBody(name), registry.listFiles(name)]);
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ ...skill, body, files })}\n`);
    return 0;
  }
  const style = createStyle(io.color);
  io.stdout.write(`${style.bold(skill.name)}  ${style.dim(skill.file)}\n${skill.description}\n`);
  if (skill.license) io.stdout.write(`${style.dim("license:")} ${skill.license}\n`);
  if (skill.compatibility) io.stdout.write(`${style.dim("compatibility:")} ${skill.compatibility}\n`);
  if (skill.allowedTools.length > 0) io.stdout.write(`${style.dim("allowed-tools:")} ${skill.allowedTools.join(" ")}\n`);
  for (const diagnostic of skill.diagnostics) io.stdout.write(style.yellow(`${diagnostic.code}: ${diagnostic.message}\n`));
  if (files.length > 0) io.stdout.write(`${style.dim("files:")}\n${files.map((file) => `  ${file.path} ${style.dim(`(${file.size} B)`)}`).join("\n")}\n`);
  io.stdout.write(`\n${body}\n`);
  return 0;
}
