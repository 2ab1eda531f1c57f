// Ollama's Modelfile-style Agentfile as a third agent-file format: FROM, SKILL, AGENT_TYPE, SYSTEM, PARAMETER.
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { AgentFileError } from "./agent-file-error.js";
import type { AgentFile } from "./agent-file-types.js";
import { checkModelParameter, type AgentModelParameters } from "./model-parameters.js";

const COMMANDS = ["FROM", "SKILL", "AGENT_TYPE", "SYSTEM", "PARAMETER"];
/** Modelfile commands skillgraph does not take over, with what to do instead. */
const NOT_SUPPORTED: Record<string, string> = {
  TEMPLATE: "the chat template is the endpoint's; leave it out",
  ADAPTER: "LoRA adapters are loaded by the model server; leave it out",
  MESSAGE: "seed messages are not supported; put them in SYSTEM",
  LICENSE: "put the license in the skills' own frontmatter",
  REQUIRES: "leave it out",
};
const PARAMETERS: Record<string, keyof AgentModelParameters> = {
  temperature: "temperature",
  top_p: "topP",
  num_predict: "maxTokens",
  max_tokens: "maxTokens",
};
/** Agent types the chat agent can be: both are the same tool-calling loop. */
export const AGENT_TYPES = ["conversational", "react"] as const;

/** Whether a file is an Agentfile: named `Agentfile` / `Modelfile` (or `*.agentfile`), or starting with a Modelfile command. */
export function isAgentfile(file: string, text: string): boolean {
  if (/^(agentfile|modelfile)(\..+)?$/i.test(basename(file)) || /\.agentfile$/i.test(file)) return true;
  const first = text.split(/\r?\n/).find((line) => line.trim() !== "" && !line.trim().startsWith("#"));
  return first !== undefined && /^(FROM|SKILL|AGENT_TYPE)\s/.test(first.trim());
}

/**
 * Reads an Agentfile (Ollama's Modelfile syntax): `FROM model`, `SKILL <folder>` (repeatable; a skill folder or a folder
 * of skills, relative to the file), `AGENT_TYPE conversational|react`, `SYSTEM text` (or `"""` over several lines),
 * `PARAMETER temperature|top_p|num_predict|max_tokens VALUE`; `#` starts a comment. Other Modelfile commands, unknown
 * parameters and registry references are AgentFileErrors naming the line.
 */
export function parseAgentfile(file: string, text: string): AgentFile {
  const lines = text.split(/\r?\n/);
  const agent: AgentFile = { file, skills: [] };
  const model: NonNullable<AgentFile["model"]> = {};
  const seen = new Set<string>();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.trim();
    const lineNumber = index + 1;
    const fail = (message: string): never => {
      throw new AgentFileError({ file, line: lineNumber, message });
    };
    if (line === "" || line.startsWith("#")) continue;
    const match = /^(\S+)\s*(.*)$/.exec(line)!;
    const command = match[1]!.toUpperCase();
    if (NOT_SUPPORTED[command]) fail(`${command} is not supported: ${NOT_SUPPORTED[command]}`);
    if (!COMMANDS.includes(command)) fail(`unknown command '${match[1]}' (known: ${COMMANDS.join(", ")})`);
    const value = readValue(match[2]!.trim(), { lines, index }, command, fail);
    index = value.lastIndex;
    if (value.text === "") fail(`${command} needs a value`);
    if (command !== "SKILL" && command !== "PARAMETER") {
      if (seen.has(command)) fail(`${command} is given twice`);
      seen.add(command);
    }
    applyCommand({ agent, model, file }, command, value.text, fail);
  }
  if (Object.keys(model).length > 0) agent.model = model;
  return agent;
}

/** A command's value: the rest of the line, a `"quoted"` value, or a `"""` block over several lines. */
function readValue(
  rest: string,
  { lines, index }: { lines: readonly string[]; index: number },
  command: string,
  fail: (message: string) => never,
): { text: string; lastIndex: number } {
  if (!rest.startsWith('"""'))
    return { text: /^".*"$/.test(rest) && rest.length >= 2 ? rest.slice(1, -1) : rest, lastIndex: index };
  const parts = [rest.slice(3)];
  let last = index;
  while (!parts[parts.length - 1]!.includes('"""')) {
    last++;
    if (last >= lines.length) fail(`${command}: the """ opened here is never closed`);
    parts.push(lines[last]!);
  }
  const joined = parts.join("\n");
  const end = joined.indexOf('"""');
  if (joined.slice(end + 3).trim() !== "") fail(`${command}: text after the closing """`);
  return { text: joined.slice(0, end).trim(), lastIndex: last };
}

/** Applies one checked command to the agent being built. */
function applyCommand(
  target: { agent: AgentFile; model: NonNullable<AgentFile["model"]>; file: string },
  command: string,
  value: string,
  fail: (message: string) => never,
): void {
  const { agent, model, file } = target;
  if (command === "FROM") model.name = value;
  else if (command === "SYSTEM") agent.systemPrompt = value;
  else if (command === "AGENT_TYPE") {
    if (!(AGENT_TYPES as readonly string[]).includes(value))
      fail(`AGENT_TYPE must be ${AGENT_TYPES.join(" or ")}, not '${value}'`);
    agent.agentType = value as AgentFile["agentType"];
  } else if (command === "SKILL") {
    if (!/^(\.|\/|~)/.test(value) && /^[\w.-]+(\/[\w.-]+)*:[\w.-]+$/.test(value))
      fail(`SKILL ${value} is a registry reference; give a skill folder (copy it in with 'skillgraph add')`);
    agent.skills.push(isAbsolute(value) ? value : resolve(dirname(file), value));
  } else {
    const [key, ...valueParts] = value.split(/\s+/);
    const parameter = PARAMETERS[key!];
    if (!parameter) fail(`PARAMETER ${key} is not supported (supported: ${Object.keys(PARAMETERS).join(", ")})`);
    const checked = checkModelParameter(parameter!, key!, valueParts.join(" "));
    if ("error" in checked) fail(`PARAMETER ${checked.error}`);
    else model[parameter!] = checked.value;
  }
}
