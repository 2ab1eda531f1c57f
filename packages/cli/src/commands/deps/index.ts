import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { createInterface } from "node:readline";
import { SkillNotFoundError } from "@skillgraph/core";
import { installSkillPythonEnvironment } from "@skillgraph/shell";
import type { CliIO } from "../../io/cli-io.js";
import { CliError } from "../../io/cli-error.js";
import type { CommandHelp } from "../../output/command-help.js";
import { createStyle } from "../../output/style.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { SKILLS_FLAG, loadSkillsFromArgs } from "../../stores/skill-sources-from-args.js";
import { UsageError } from "../../io/usage-error.js";
import { dependencyReport, somethingMissing, type DependencyReport } from "./dependency-report.js";
import { booleanFlag, flagsHelp, flagsUsage, parseFlags } from "../../io/flag-table.js";

/** One-line usage shown by `skillgraph deps --help` and on usage errors. */
/** Every flag of `skillgraph deps`, in help order. */
const depsFlags = {
  skills: SKILLS_FLAG,
  install: booleanFlag("install the missing Python packages after asking"),
  yes: booleanFlag("with --install: do not ask", { short: "y", default: "ask on stdin" }),
  json: booleanFlag("print the report as JSON"),
};

export const usage = flagsUsage("deps", depsFlags, "NAME");

export const help: CommandHelp = {
  summary:
    "List what a skill declares it needs (tama's depends: bins, apt, uv; a requirements.txt) and what is missing here. " +
    "With --install, install its Python packages into the skill's own environment (no root; the one the shell uses " +
    "when its scripts run) after you approve, and print the apt-get line for Debian packages.",
  options: flagsHelp(depsFlags),
  notes: [
    "Nothing is ever installed as root: Debian packages are printed as an apt-get line to run yourself.",
    "Exit codes: 0 nothing missing (after --install), 1 something missing or the install failed, 2 usage error.",
  ],
  examples: ["skillgraph deps fetcher --skills examples/skills", "skillgraph deps fetcher --install"],
};

/** `skillgraph deps`: a skill's declared dependencies, what is missing, and installing its Python packages. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { options: values, positionals } = parseFlags(depsFlags, args, { positionals: true });
  const [name] = positionals;
  if (!name || positionals.length > 1) throw new UsageError("give exactly one skill name");
  if (values.yes && !values.install) throw new UsageError("--yes only goes with --install");
  const registry = await loadSkillsFromArgs(values.skills, io, { report: !values.json });
  const skill = registry.get(name);
  if (!skill)
    throw new CliError(
      new SkillNotFoundError({
        skillName: name,
        suggestions: registry.search(name, { limit: 3 }).map((hit) => hit.name),
      }).message,
    );
  const options = { path: io.env.PATH, environmentRoot: environmentRoot(io.env) };
  let report = await dependencyReport(skill, options);
  const python = report.python;
  if (values.install && python && !("error" in python) && !python.installed) {
    const question = `Install ${python.packages.join(", ")} into ${python.environment} (pip, network on, no root)? [y/N] `;
    if (values.yes || (await ask(io, question))) {
      const installed = await installSkillPythonEnvironment(skill, {
        root: options.environmentRoot,
        env: io.env,
      });
      if (!installed.ok)
        io.stderr.write(
          `error: ${terminalSafeLine(installed.message.split("\n")[0]!)}\n${installed.message.split("\n").slice(1).join("\n")}\n`,
        );
      report = await dependencyReport(skill, options);
    } else io.stderr.write("not installed (not approved)\n");
  }
  if (values.json) io.stdout.write(`${JSON.stringify(report)}\n`);
  else printReport(report, io, values.install === true);
  return somethingMissing(report) ? 1 : 0;
}

/** The shell hook's environments folder, from this command's environment: `$XDG_CACHE_HOME/skillgraph/envs` or `~/.cache/skillgraph/envs`. */
function environmentRoot(env: CliIO["env"]): string {
  const cache =
    env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(env.HOME ?? homedir(), ".cache");
  return join(cache, "skillgraph", "envs");
}

/** Asks a yes/no question on stderr and reads one line of stdin. */
async function ask(io: CliIO, question: string): Promise<boolean> {
  io.stderr.write(question);
  const lines = createInterface({ input: io.stdin, terminal: false });
  try {
    for await (const line of lines) return /^\s*y(es)?\s*$/i.test(line);
    return false;
  } finally {
    lines.close();
  }
}

function printReport(report: DependencyReport, io: CliIO, installing: boolean): void {
  const style = createStyle(io.color);
  const out = (text: string) => io.stdout.write(`${text}\n`);
  const ok = style.green("ok");
  const missing = style.red("missing");
  out(`${style.bold(terminalSafeLine(report.skill))} ${style.dim(terminalSafeLine(report.dir))}`);
  const none = report.bins.length + report.apt.length === 0 && report.python === null;
  if (none) out("  declares no dependencies");
  for (const bin of report.bins)
    out(`  program ${terminalSafeLine(bin.name)}: ${bin.path ? `${ok} (${terminalSafeLine(bin.path)})` : missing}`);
  for (const pkg of report.apt)
    out(
      `  Debian package ${terminalSafeLine(pkg.name)}: ${pkg.installed === true ? ok : pkg.installed === false ? missing : style.yellow("unknown (no dpkg)")}`,
    );
  const python = report.python;
  if (python && "error" in python) out(`  Python packages: ${style.red(terminalSafeLine(python.error))}`);
  else if (python)
    out(
      `  Python packages (${python.source}) ${python.packages.map(terminalSafeLine).join(", ")}: ${python.installed ? ok : missing} (environment ${terminalSafeLine(python.environment)})`,
    );
  if (report.aptCommand) out(`Install the Debian packages yourself, as root: ${terminalSafeLine(report.aptCommand)}`);
  if (python && !("error" in python) && !python.installed && !installing)
    out(`Install the Python packages with: skillgraph deps ${terminalSafeLine(report.skill)} --install`);
  const bins = report.bins.filter((bin) => bin.path === null).map((bin) => bin.name);
  if (bins.length > 0 && report.apt.length === 0)
    out(`Missing programs (install them with your package manager): ${bins.map(terminalSafeLine).join(", ")}`);
}
