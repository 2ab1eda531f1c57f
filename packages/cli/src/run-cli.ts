import { readFileSync } from "node:fs";
import { SkillgraphError } from "@skillgraph/core";
import type { CliIO, CommandRun } from "./io/cli-io.js";
import { CliError } from "./io/cli-error.js";
import { formatCommandHelp, type CommandHelp } from "./output/command-help.js";
import { terminalSafeLine } from "./output/terminal-safe.js";
import { joinNegativeNumbers, suggestCommand } from "./suggest-command.js";
import { UsageError } from "./io/usage-error.js";

/** What a command folder exports: its runner and its help (options with defaults, examples). */
export interface CommandModule {
  run: CommandRun;
  usage: string;
  help: CommandHelp;
}

/**
 * Every command, loaded on demand so `validate` never pays for LangChain imports.
 * Adding a command = one folder under commands/ exporting `run`, `usage`, `help` + one line here.
 */
export const commands: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  validate: {
    summary: "check skill folders against the Agent Skills spec",
    load: () => import("./commands/validate/index.js"),
  },
  list: { summary: "list the skills found in the sources", load: () => import("./commands/list/index.js") },
  index: { summary: "write a registry snapshot for fast cold starts", load: () => import("./commands/index/index.js") },
  publish: {
    summary: "validate skills and publish them to a shared store (PostgreSQL)",
    load: () => import("./commands/publish/index.js"),
  },
  show: { summary: "show one skill: metadata, files, body", load: () => import("./commands/show/index.js") },
  prompt: {
    summary: "print the skills section of the system prompt (what chat sends)",
    load: () => import("./commands/prompt/index.js"),
  },
  search: { summary: "rank skills for a task description", load: () => import("./commands/search/index.js") },
  sessions: {
    summary: "list, show, prune and delete checkpointed chat sessions",
    load: () => import("./commands/sessions/index.js"),
  },
  init: { summary: "create a new skill folder that validates", load: () => import("./commands/init/index.js") },
  add: {
    summary: "copy skills (a folder or an installed npm package) into .agents/skills",
    load: () => import("./commands/add/index.js"),
  },
  chat: {
    summary: "chat with an agent over your skills (any OpenAI-compatible endpoint)",
    load: () => import("./commands/chat/index.js"),
  },
  deps: {
    summary: "list a skill's declared dependencies and install its Python packages",
    load: () => import("./commands/deps/index.js"),
  },
  agents: {
    summary: "save an agent file under a name, show and list saved agents",
    load: () => import("./commands/agents/index.js"),
  },
};

/** The version of the installed @skillgraph/cli. */
export function cliVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

/** The top-level help text. */
export function mainHelp(): string {
  return (
    `skillgraph: the Agent Skills runtime for LangGraph.js\n\nUsage: skillgraph <command> [options]\n\n${Object.entries(
      commands,
    )
      .map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`)
      .join("\n")}\n\nRun 'skillgraph help <command>' or 'skillgraph <command> --help' for a command's options.\n` +
    "Global: --version prints the version; SKILLGRAPH_SKILLS adds skill folders (comma-separated).\n"
  );
}

/** Runs the CLI with the given arguments and IO; returns the exit code (0 ok, 1 failure, 2 usage error). */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-V" || name === "version") {
    io.stdout.write(`${cliVersion()}\n`);
    return 0;
  }
  if (name === "help" && rest[0] !== undefined) return runCli([rest[0], "--help"], io);
  if (!name || name === "--help" || name === "-h" || name === "help") {
    (name ? io.stdout : io.stderr).write(mainHelp());
    return name ? 0 : 2;
  }
  const entry = commands[name];
  if (!entry) {
    const suggestion = suggestCommand(name, Object.keys(commands));
    io.stderr.write(
      suggestion
        ? `error: unknown command '${terminalSafeLine(name)}' (did you mean '${suggestion}'?)\nRun 'skillgraph --help' for every command.\n`
        : `error: unknown command '${terminalSafeLine(name)}'\n\n${mainHelp()}`,
    );
    return 2;
  }
  const command = await entry.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout.write(formatCommandHelp(name, command.usage, command.help));
    return 0;
  }
  try {
    return await command.run(joinNegativeNumbers(rest), io);
  } catch (error) {
    return reportError(name, command, error, io);
  }
}

/** One line for any error: usage errors (exit 2) with the usage line, user errors (exit 1); never a stack trace. */
function reportError(name: string, command: CommandModule, error: unknown, io: CliIO): number {
  let message = terminalSafeLine(error instanceof Error ? error.message : String(error));
  if (message.includes("'--source'")) message += " (did you mean --skills?)";
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    io.stderr.write(
      `error: skillgraph ${name}: ${message}\nUsage: ${command.usage}\nRun 'skillgraph help ${name}' for every option.\n`,
    );
    return 2;
  }
  if (CliError.isInstance(error)) {
    io.stderr.write(`error: ${message}\n`);
    return error.exitCode;
  }
  if (SkillgraphError.isInstance(error)) {
    io.stderr.write(`error: ${message}\n`);
    return 1;
  }
  // Anything else is still reported in one line; the stack only on request.
  const code = (error as { code?: unknown }).code;
  io.stderr.write(`error: ${message}${typeof code === "string" && !message.includes(code) ? ` (${code})` : ""}\n`);
  if (io.env.SKILLGRAPH_DEBUG) io.stderr.write(`${(error as Error).stack ?? ""}\n`);
  else io.stderr.write("(set SKILLGRAPH_DEBUG=1 to see where it failed)\n");
  return 1;
}
