// Named agents: an agent file read once and saved under a name beside the chat sessions, then run and shown by name
// (`skillgraph agents create NAME -f FILE`, `chat --agent NAME`, `agents show NAME`).
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { loadAgentFile, type AgentFile, type AgentModelParameters } from "@skillgraph/core/agent-file";
import type { CliIO } from "../../io/cli-io.js";
import { CliError } from "../../io/cli-error.js";
import { sessionsUrl } from "../../stores/sessions-url.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { UsageError } from "../../io/usage-error.js";

/** What an agent name may be: a letter or digit, then letters, digits, `.`, `_`, `-` (64 at most). */
export const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SUFFIX = ".agent.json";

/** The folder named agents live in: `agents/` beside the sessions database (`.skillgraph/agents` by default). */
export function agentsFolder(io: CliIO): string {
  const url = sessionsUrl(undefined, io.env);
  if (url.startsWith("sqlite:") && url !== "sqlite::memory:")
    return join(dirname(resolve(io.cwd, url.slice("sqlite:".length))), "agents");
  return resolve(io.cwd, ".skillgraph", "agents");
}

/** The saved file of a named agent (the name checked first: a UsageError for anything but a plain name). */
export function agentPath(io: CliIO, name: string): string {
  if (!AGENT_NAME.test(name) || name.includes(".."))
    throw new UsageError(`'${name}' is not an agent name (letters, digits, '.', '_', '-'; at most 64)`);
  return join(agentsFolder(io), `${name}${SUFFIX}`);
}

/** Saves an agent file's checked content under a name; refuses to replace a saved agent unless `force`. */
export async function saveNamedAgent(io: CliIO, name: string, agent: AgentFile, force: boolean): Promise<string> {
  const path = agentPath(io, name);
  if (!force && existsSync(path))
    throw new CliError(`agent '${name}' already exists (${path}); pass --force to replace it`);
  await mkdir(dirname(path), { recursive: true });
  const { file: _file, ignored: _ignored, ...settings } = agent;
  const temporary = `${path}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(temporary, `${JSON.stringify(settings, null, 2)}\n`, { flag: "wx", mode: 0o600 });
  await rename(temporary, path);
  return path;
}

/** Reads a named agent back (checked again as an agent file); CliError when there is none. */
export async function loadNamedAgent(io: CliIO, name: string): Promise<AgentFile> {
  const path = agentPath(io, name);
  if (!existsSync(path))
    throw new CliError(
      `no agent named '${name}' in ${agentsFolder(io)} (create it with: skillgraph agents create ${name} -f FILE)`,
    );
  return loadAgentFile(path);
}

/** The names of the saved agents, sorted. */
export async function listNamedAgents(io: CliIO): Promise<string[]> {
  const entries = await readdir(agentsFolder(io)).catch(() => [] as string[]);
  return entries
    .filter((entry) => entry.endsWith(SUFFIX))
    .map((entry) => entry.slice(0, -SUFFIX.length))
    .sort();
}

/** Removes a saved agent; CliError when there is none. */
export async function deleteNamedAgent(io: CliIO, name: string): Promise<void> {
  const path = agentPath(io, name);
  if (!existsSync(path)) throw new CliError(`no agent named '${name}' in ${agentsFolder(io)}`);
  await rm(path);
}

/**
 * `chat --agent VALUE`: a path to an agent file when it names an existing file or contains a path separator, else the
 * name of a saved agent.
 */
export async function loadAgentFileOrNamed(value: string, io: CliIO): Promise<AgentFile> {
  const path = resolve(io.cwd, value);
  if (/[\\/]/.test(value) || existsSync(path) || !AGENT_NAME.test(value))
    return withIgnoredNoted(await loadAgentFile(path), io);
  return loadNamedAgent(io, value);
}

/** Prints the lines of an Agentfile that were read and ignored (one `note:` each, on stderr). */
export function withIgnoredNoted(agent: AgentFile, io: CliIO): AgentFile {
  for (const line of agent.ignored ?? []) io.stderr.write(`note: ${terminalSafeLine(line)}\n`);
  return agent;
}

/** An agent file's sampling parameters, as the chat model takes them. */
export function modelParameters(agent: AgentFile | undefined): AgentModelParameters & { stop?: string[] } {
  const model = agent?.model;
  return {
    ...(model?.stop === undefined ? {} : { stop: model.stop }),
    ...(model?.temperature === undefined ? {} : { temperature: model.temperature }),
    ...(model?.topP === undefined ? {} : { topP: model.topP }),
    ...(model?.maxTokens === undefined ? {} : { maxTokens: model.maxTokens }),
  };
}
