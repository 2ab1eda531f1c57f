import type { CliIO } from "../../io/cli-io.js";
import type { CommandHelp } from "../../output/command-help.js";
import { formatTable, terminalColumns, truncate, visibleWidth } from "../../output/format-table.js";
import { createStyle } from "../../output/style.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { loadSkillsFromArgs } from "../../stores/skill-sources-from-args.js";
import { openSkillStore } from "../../stores/open-skill-store.js";
import { booleanFlag, flagsHelp, flagsUsage, listFlag, parseFlags, stringFlag } from "../../io/flag-table.js";

/** Every flag of `skillgraph list`, in help order. */
const listFlags = {
  skills: listFlag("DIR", "read skills from DIR (repeatable); a missing folder or one without skills is an error", {
    default: ".agents/skills, .claude/skills, skills/ and the user folders",
  }),
  store: stringFlag(
    "URL",
    "list the skills published to a shared store (postgres://...[?schema=S]); alone unless --skills is given too",
    { default: "none" },
  ),
  json: booleanFlag("print one JSON object: skills (path = folder, skillFile = SKILL.md), shadowed, diagnostics"),
  verbose: booleanFlag("list every skill that could not be loaded, not only the first 3"),
};

export const usage = flagsUsage("list", listFlags);

export const help: CommandHelp = {
  summary: "List every skill the sources hold: name, description, layer, problems; then shadowed skills.",
  options: flagsHelp(listFlags),
  notes: [
    "Each folder that could not be read and each skill that could not be loaded is reported once on stderr, with its",
    "path and cause; the exit code is then 1 (the readable skills are still listed).",
  ],
  examples: [
    "skillgraph list --skills examples/skills",
    "skillgraph list --json --skills ./skills --skills ~/shared-skills",
  ],
};

/** `skillgraph list`: every skill the sources hold (name, description, origin, diagnostics), and what was shadowed. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { options: values } = parseFlags(listFlags, args);
  // --store URL: the skills published to a shared store (alone, unless --skills folders are given too).
  const opened = values.store ? await openSkillStore(values.store) : undefined;
  const storeSources = opened ? [(await import("@skillgraph/langgraph/store")).skillsFromStore(opened.store)] : [];
  const registry = await loadSkillsFromArgs(values.skills, io, {
    verbose: values.verbose === true,
    report: !values.json,
    extraSources: storeSources,
    skipDefaults: opened !== undefined && values.skills.length === 0,
  }).finally(() => opened?.close());
  const skills = registry.list();
  // Something could not be read (a folder, a skill): reported once (stderr, or --json), and the exit code says so.
  const unreadable = registry.diagnostics().some((diagnostic) => diagnostic.severity === "error");
  if (values.json) {
    const payload = {
      skills: skills.map((skill) => ({
        name: skill.name,
        description: skill.description,
        path: skill.dir,
        skillFile: skill.file,
        layer: skill.origin.layer,
        source: skill.origin.sourceId,
        diagnostics: skill.diagnostics.map(({ code, severity, message }) => ({ code, severity, message })),
      })),
      shadowed: registry.shadowed(),
      diagnostics: registry
        .diagnostics()
        .map(({ code, severity, message, path }) => ({ code, severity, message, path })),
    };
    io.stdout.write(`${JSON.stringify(payload)}\n`);
    return unreadable ? 1 : 0;
  }
  const style = createStyle(io.color);
  if (skills.length === 0) {
    io.stdout.write(
      "No skills found. Looked in .agents/skills, .claude/skills, skills/ and ~/.agents/skills, ~/.claude/skills, ~/.codex/skills (use --skills DIR).\n",
    );
    return unreadable ? 1 : 0;
  }
  const names = skills.map((skill) => terminalSafeLine(skill.name));
  const nameWidth = Math.max(...names.map((name) => visibleWidth(name)));
  const layerWidth = Math.max(...skills.map((skill) => visibleWidth(skill.origin.layer)));
  const width = Math.max(20, terminalColumns(io.stdout, io.env) - nameWidth - layerWidth - 8 - 10);
  const rows = skills.map((skill, index) => {
    const problems = skill.diagnostics.filter((d) => d.severity === "error").length;
    return [
      style.bold(names[index]!),
      style.dim(skill.origin.layer),
      problems > 0 ? style.yellow(`${problems} issue${problems > 1 ? "s" : ""}`) : "",
      truncate(terminalSafeLine(skill.description), width),
    ];
  });
  io.stdout.write(`${formatTable(rows)}\n`);
  for (const shadow of registry.shadowed()) {
    io.stdout.write(
      style.dim(
        terminalSafeLine(
          `shadowed: ${shadow.name} at ${shadow.shadowed.file} (${shadow.shadowed.origin.layer}) by ${shadow.winner.file} (${shadow.winner.origin.layer})`,
        ),
      ) + "\n",
    );
  }
  // Errors were reported by loadSkillsFromArgs; warnings (dangling links, cycles) once here, on stderr.
  for (const diagnostic of registry.diagnostics().filter((d) => d.severity === "warning"))
    io.stderr.write(`warning: ${diagnostic.code}: ${terminalSafeLine(diagnostic.message)}\n`);
  io.stdout.write(style.dim(`${skills.length} skill${skills.length === 1 ? "" : "s"}\n`));
  return unreadable ? 1 : 0;
}
