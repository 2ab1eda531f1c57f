import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { buildRegistrySnapshot, defaultSnapshotFile, defaultSnapshotFolder } from "@skillgraph/core/snapshot";
import type { CliIO } from "../../io/cli-io.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import type { CommandHelp } from "../../output/command-help.js";
import { checkSkillsFolder, skillSourcesFromArgs } from "../../stores/skill-sources-from-args.js";

export const usage = "skillgraph index [--out FILE] [--strict] [--json] [--skills DIR]...";

export const help: CommandHelp = {
  summary: "Write a registry snapshot of the sources, for fast cold starts (createSkillRegistry({ snapshot: FILE })).",
  options: [
    {
      flags: "--out FILE",
      description: "write the snapshot to FILE (to ship with a deployment)",
      default: "the cache a registry over the same sources reads",
    },
    { flags: "--strict", description: "fail when a skill has errors", default: "off" },
    { flags: "--json", description: "print { file, bytes, skills, diagnostics }", default: "off" },
    {
      flags: "--skills DIR",
      description: "read skills from DIR (repeatable)",
      default: "the conventional skill folders",
    },
  ],
  examples: [
    "skillgraph index --skills examples/skills",
    "skillgraph index --skills skills --out dist/skills.snapshot.json --strict",
  ],
};

/**
 * `skillgraph index`: loads the sources from their files and writes a registry snapshot, by default where a registry
 * over the same sources looks for one (node_modules/.cache/skillgraph or the XDG cache); `--out FILE` writes one to
 * ship with a deployment (`createSkillRegistry({ snapshot: FILE })`).
 */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      out: { type: "string" },
      strict: { type: "boolean" },
      json: { type: "boolean" },
      skills: { type: "string", multiple: true },
    },
  });
  for (const dir of values.skills ?? []) checkSkillsFolder(dir, io.cwd);
  const sources = skillSourcesFromArgs(values.skills, io.cwd, io.env);
  const diskIds = sources.filter((source) => source.kind !== "code").map((source) => source.id);
  const out =
    values.out === undefined
      ? defaultSnapshotFile(diskIds, defaultSnapshotFolder(io.cwd, io.env))
      : resolve(io.cwd, values.out);
  const built = await buildRegistrySnapshot({ sources, out, strict: values.strict ?? false });
  if (values.json) {
    io.stdout.write(
      `${JSON.stringify({ file: built.file, bytes: built.bytes, skills: built.skills, diagnostics: built.diagnostics.map(({ code, severity, message }) => ({ code, severity, message })) })}\n`,
    );
    return 0;
  }
  for (const diagnostic of built.diagnostics)
    io.stdout.write(`${terminalSafeLine(`${diagnostic.severity}: ${diagnostic.code}: ${diagnostic.message}`)}\n`);
  io.stdout.write(
    `${built.skills} skill${built.skills === 1 ? "" : "s"} indexed: ${built.file} (${built.bytes} bytes)\n`,
  );
  return 0;
}
