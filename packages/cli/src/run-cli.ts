import { SkillgraphError } from "@skillgraph/core";
import type { CliIO, CommandRun } from "./cli-io.js";
import { UsageError } from "./usage-error.js";

interface CommandModule {
  run: CommandRun;
  usage: string;
}

/** Every command, loaded on demand so `validate` never pays for LangChain imports. */
const commands: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  validate: { summary: "check skill folders against the Agent Skills spec", load: () => import("./commands/validate/index.js") },
  list: { summary: "list the skills found in the sources", load: () => import("./commands/list/index.js") },
  index: { summary: "write a registry snapshot for fast cold starts", load: () => import("./commands/index/index.js") },
  publish: { summary: "validate skills and publish them to a shared store (PostgreSQL)", load: () => import("./commands/publish/index.js") },
  show: { summary: "show one skill: metadata, files, body", load: () => import("./commands/show/index.js") },
  prompt: { summary: "print the skills section of the system prompt", load: () => import("./commands/prompt/index.js") },
  search: { summary: "rank skills for a task description", load: () => import("./commands/search/index.js") },
  sessions: { summary: "list, show, prune and delete checkpointed chat sessions", load: () => import("./commands/sessions/index.js") },
  chat: { summary: "chat with an agent over your skills (any OpenAI-compatible endpoint)", load: () => import("./commands/chat/index.js") },
};

const help = () =>
  `skillgraph: the Agent Skills runtime for LangGraph.js\n\nUsage: skillgraph <command> [options]\n\n${Object.entries(commands)
    .map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`)
    .join("\n")}\n\nRun 'skillgraph <command> --help' for a command's options.\n`;

/** Runs the CLI with the given arguments and IO; returns the exit code (0 ok, 1 failure, 2 usage error). */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(help());
    return name ? 0 : 2;
  }
  const entry = commands[name];
  if (!entry) {
    io.stderr.write(`skillgraph: unknown command '${name}'\n\n${help()}`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout.write(`Usage: ${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr.write(`skillgraph ${name}: ${(error as Error).message}\nUsage: ${command.usage}\n`);
      return 2;
    }
    if (SkillgraphError.isInstance(error)) {
      io.stderr.write(`Error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
