import { resolve } from "node:path";
import { buildRegistrySnapshot, defaultSnapshotFile, defaultSnapshotFolder } from "@skillgraph/core/snapshot";
import type { CliIO } from "../../io/cli-io.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import type { CommandHelp } from "../../output/command-help.js";
import { SKILLS_FLAG, checkSkillsFolder, skillSourcesFromArgs } from "../../stores/skill-sources-from-args.js";
import { booleanFlag, flagsHelp, flagsUsage, parseFlags, stringFlag } from "../../io/flag-table.js";

/** Every flag of `skillgraph index`, in help order. */
const indexFlags = {
  out: stringFlag("FILE", "write the snapshot to FILE (to ship with a deployment)", {
    default: "the cache a registry over the same sources reads",
  }),
  strict: booleanFlag("fail when a skill has errors"),
  json: booleanFlag("print { file, bytes, skills, diagnostics }"),
  skills: SKILLS_FLAG,
};

export const usage = flagsUsage("index", indexFlags);

export const help: CommandHelp = {
  summary: "Write a registry snapshot of the sources, for fast cold starts (createSkillRegistry({ snapshot: FILE })).",
  options: flagsHelp(indexFlags),
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
  const { options: values } = parseFlags(indexFlags, args);
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
