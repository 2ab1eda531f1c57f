// Ollama's Modelfile-style Agentfile as a third agent-file format: FROM, SKILL, AGENT_TYPE, SYSTEM, PARAMETER. The
// Modelfile commands that belong to the model server are read and ignored with a note, so an existing file loads.
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { AgentFileError } from "./agent-file-error.js";
import type { AgentFile } from "./agent-file-types.js";
import { checkModelParameter, type AgentModelParameters } from "./model-parameters.js";

const COMMANDS = ["FROM", "SKILL", "AGENT_TYPE", "SYSTEM", "PARAMETER"];
/** Modelfile commands that belong to the model server: read and ignored, with why (the note `ignored` carries). */
const IGNORED_COMMANDS: Record<string, string> = {
  TEMPLATE: "the chat template is the model server's (skillgraph talks to it over the OpenAI API)",
  ADAPTER: "LoRA adapters are loaded by the model server; put the ADAPTER in the model's own Modelfile",
  MESSAGE: "seed messages are not sent; put what they teach in SYSTEM",
  LICENSE: "a license is not a setting of the agent",
  REQUIRES: "the Ollama version a model needs is the model server's concern",
};
/** Ollama PARAMETERs with no OpenAI-API equivalent skillgraph sends: read and ignored, with a note. */
const IGNORED_PARAMETERS = new Set([
  "num_ctx",
  "num_keep",
  "num_gpu",
  "num_thread",
  "num_batch",
  "repeat_last_n",
  "repeat_penalty",
  "top_k",
  "min_p",
  "typical_p",
  "tfs_z",
  "mirostat",
  "mirostat_eta",
  "mirostat_tau",
  "penalize_newline",
  "seed",
]);
const PARAMETERS: Record<string, keyof AgentModelParameters> = {
  temperature: "temperature",
  top_p: "topP",
  num_predict: "maxTokens",
  max_tokens: "maxTokens",
};
/** Agent types the chat agent can be: all are the same tool-calling loop. */
export const AGENT_TYPES = ["conversational", "react", "task-based"] as const;

/** Whether a file is an Agentfile: named `Agentfile` / `Modelfile` (or `*.agentfile`), or starting with a Modelfile command. */
export function isAgentfile(file: string, text: string): boolean {
  if (/^(agentfile|modelfile)(\..+)?$/i.test(basename(file)) || /\.agentfile$/i.test(file)) return true;
  const first = text.split(/\r?\n/).find((line) => line.trim() !== "" && !line.trim().startsWith("#"));
  return first !== undefined && /^(FROM|SKILL|AGENT_TYPE)\s/.test(first.trim());
}

/**
 * Reads an Agentfile (Ollama's Modelfile syntax): `FROM model`, `SKILL <folder>` (repeatable; a skill folder or a folder
 * of skills, relative to the file), `AGENT_TYPE conversational|react`, `SYSTEM text` (or `"""` over several lines),
 * `PARAMETER temperature|top_p|num_predict|max_tokens VALUE`, `PARAMETER stop TEXT` (repeatable); `#` starts a comment.
 * `TEMPLATE`, `ADAPTER`, `MESSAGE`, `LICENSE`, `REQUIRES` and Ollama parameters with no OpenAI-API equivalent
 * (`num_ctx`, `top_k`, `seed`, ...) are read and ignored, each with a note in `ignored`. Unknown commands and
 * parameters and registry references are AgentFileErrors naming the line.
 */
export function parseAgentfile(file: string, text: string): AgentFile {
  const lines = text.split(/\r?\n/);
  const agent: AgentFile = { file, skills: [] };
  const model: NonNullable<AgentFile["model"]> = {};
  const seen = new Set<string>();
  const ignored: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.trim();
    const lineNumber = index + 1;
    const fail = (message: string): never => {
      throw new AgentFileError({ file, line: lineNumber, message });
    };
    if (line === "" || line.startsWith("#")) continue;
    const match = /^(\S+)\s*(.*)$/.exec(line)!;
    const command = match[1]!.toUpperCase();
    const ignoredWhy = IGNORED_COMMANDS[command];
    if (!ignoredWhy && !COMMANDS.includes(command))
      fail(`unknown command '${match[1]}' (known: ${[...COMMANDS, ...Object.keys(IGNORED_COMMANDS)].join(", ")})`);
    const value = readValue(match[2]!.trim(), { lines, index }, command, fail);
    index = value.lastIndex;
    if (ignoredWhy) {
      ignored.push(`${basename(file)}:${lineNumber}: ${command} ignored: ${ignoredWhy}`);
      continue;
    }
    if (value.text === "") fail(`${command} needs a value`);
    const parameter = command === "PARAMETER" ? value.text.split(/\s+/)[0]! : "";
    if (IGNORED_PARAMETERS.has(parameter)) {
      ignored.push(
        `${basename(file)}:${lineNumber}: PARAMETER ${parameter} ignored: the OpenAI API has no such setting (set it on the model server)`,
      );
      continue;
    }
    if (command !== "SKILL" && command !== "PARAMETER") {
      if (seen.has(command)) fail(`${command} is given twice`);
      seen.add(command);
    }
    applyCommand({ agent, model, file }, command, value.text, fail);
  }
  if (Object.keys(model).length > 0) agent.model = model;
  if (ignored.length > 0) agent.ignored = ignored;
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
  } else if (/^stop\s/.test(value)) {
    const stop = readValue(value.slice(4).trim(), { lines: [], index: 0 }, "PARAMETER stop", fail).text;
    model.stop = [...(model.stop ?? []), stop];
  } else {
    const [key, ...valueParts] = value.split(/\s+/);
    const parameter = PARAMETERS[key!];
    if (!parameter)
      fail(
        `PARAMETER ${key} is not supported (supported: ${[...Object.keys(PARAMETERS), "stop"].join(", ")}; ignored: ${[...IGNORED_PARAMETERS].join(", ")})`,
      );
    const checked = checkModelParameter(parameter!, key!, valueParts.join(" "));
    if ("error" in checked) fail(`PARAMETER ${checked.error}`);
    else model[parameter!] = checked.value;
  }
}
