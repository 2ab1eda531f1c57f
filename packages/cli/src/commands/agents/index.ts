import { statSync } from "node:fs";
import { resolve } from "node:path";
import { loadAgentFile, type AgentFile } from "@skillgraph/core/agent-file";
import type { CliIO } from "../../io/cli-io.js";
import type { CommandHelp } from "../../output/command-help.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { checkedOptions } from "../../io/checked-options.js";
import { flagsHelp, flagsUsage } from "../../io/flag-table.js";
import { CliError } from "../../io/cli-error.js";
import {
  agentsFolder,
  deleteNamedAgent,
  listNamedAgents,
  loadNamedAgent,
  saveNamedAgent,
  withIgnoredNoted,
} from "./agent-store.js";
import { agentsCommandSchema, agentsFlags, readAgentsArgs } from "./agents-command.js";

/** One-line usage shown by `skillgraph agents --help` and on usage errors. */
export const usage = flagsUsage("agents", agentsFlags, "create NAME | show NAME | list | delete NAME");

export const help: CommandHelp = {
  summary:
    "Save an agent file (skillgraph.agent.yaml, package.json 'skillgraph' key or an Ollama-style Agentfile) under a name, then run it with 'skillgraph chat --agent NAME'. Agents are kept in agents/ beside the sessions database.",
  options: flagsHelp(agentsFlags),
  notes: ["Exit codes: 0 ok, 1 bad agent file or agent not found, 2 usage error."],
  examples: [
    "skillgraph agents create release -f Agentfile",
    "skillgraph chat --agent release",
    "skillgraph agents show release",
  ],
};

/** `skillgraph agents`: create, show, list and delete named agents. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const command = checkedOptions(agentsCommandSchema, readAgentsArgs(args));
  const out = (text: string) => io.stdout.write(`${text}\n`);
  if (command.action === "create") {
    const agent = withIgnoredNoted(await loadAgentFile(resolve(io.cwd, command.file)), io);
    // a SKILL folder that is not there is said now, not at the first chat
    const missing = agent.skills.filter((dir) => !statSync(dir, { throwIfNoEntry: false })?.isDirectory());
    if (missing.length > 0)
      throw new CliError(
        `${agent.file}: skill folder${missing.length === 1 ? "" : "s"} not found: ${missing.map(terminalSafeLine).join(", ")}`,
      );
    const path = await saveNamedAgent(io, command.name, agent, command.force);
    out(
      `Created agent ${terminalSafeLine(command.name)} (${terminalSafeLine(path)}); run it with: skillgraph chat --agent ${command.name}`,
    );
    return 0;
  }
  if (command.action === "list") {
    const names = await listNamedAgents(io);
    if (command.json) out(JSON.stringify({ folder: agentsFolder(io), agents: names }));
    else if (names.length === 0) out(`No agents in ${terminalSafeLine(agentsFolder(io))}.`);
    else for (const agent of names) out(terminalSafeLine(agent));
    return 0;
  }
  const { name } = command;
  if (command.action === "delete") {
    await deleteNamedAgent(io, name);
    out(`Deleted agent ${terminalSafeLine(name)}.`);
    return 0;
  }
  const agent = await loadNamedAgent(io, name);
  const { file, ...settings } = agent;
  if (command.json) out(JSON.stringify({ name, file, ...settings }));
  else for (const line of describeAgent(name, agent)) out(line);
  return 0;
}

/** The lines of `agents show NAME`. */
function describeAgent(name: string, agent: AgentFile): string[] {
  const safe = terminalSafeLine;
  const lines = [`agent: ${safe(name)}`, `file: ${safe(agent.file)}`];
  const model = agent.model ?? {};
  if (model.name) lines.push(`model: ${safe(model.name)}${model.baseUrl ? ` at ${safe(model.baseUrl)}` : ""}`);
  const parameters = (["temperature", "topP", "maxTokens"] as const)
    .filter((key) => model[key] !== undefined)
    .map((key) => `${key} ${model[key]}`);
  if (model.stop) parameters.push(`stop ${model.stop.map((stop) => JSON.stringify(stop)).join(" ")}`);
  if (parameters.length > 0) lines.push(`parameters: ${safe(parameters.join(", "))}`);
  if (agent.agentType) lines.push(`type: ${agent.agentType}`);
  lines.push(`skills: ${agent.skills.length === 0 ? "(conventional folders)" : agent.skills.map(safe).join(", ")}`);
  if (agent.only) lines.push(`only: ${agent.only.map(safe).join(", ")}`);
  if (agent.exclude) lines.push(`exclude: ${agent.exclude.map(safe).join(", ")}`);
  if (agent.loadMode) lines.push(`load mode: ${agent.loadMode}`);
  if (agent.shell)
    lines.push(
      `shell: ${Object.entries(agent.shell)
        .map(([key, value]) => `${key} ${value}`)
        .join(", ")}`,
    );
  if (agent.checkpointer) lines.push(`checkpointer: ${safe(agent.checkpointer)}`);
  if (agent.systemPrompt) {
    lines.push("system prompt:");
    for (const line of agent.systemPrompt.split("\n")) lines.push(`  ${safe(line)}`);
  }
  return lines;
}
