import { readFile } from "node:fs/promises";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { isMap, isScalar, LineCounter, parseDocument, type Document } from "yaml";
import { AgentFileError } from "./agent-file-error.js";
import type { AgentFile } from "./agent-file-types.js";
import { MODEL_PARAMETER_RULES, readModelParameters } from "./model-parameters.js";
import { AGENT_TYPES, isAgentfile, parseAgentfile } from "./parse-agentfile.js";

/** File names `findAgentFile` looks for. */
export const AGENT_FILE_NAMES = ["skillgraph.agent.yaml", "skillgraph.agent.yml"] as const;

const TOP_KEYS = [
  "model",
  "systemPrompt",
  "skills",
  "only",
  "exclude",
  "loadMode",
  "loadModes",
  "shell",
  "checkpointer",
  "agentType",
];
const LOAD_MODES = ["turn", "once", "session"];

/**
 * Reads a declarative agent: `skillgraph.agent.yaml` (YAML), a package.json with a `skillgraph` key, or an Ollama-style
 * Agentfile (`FROM`, `SKILL`, `AGENT_TYPE`, `SYSTEM`, `PARAMETER`; see parseAgentfile). Plain checks,
 * no schema library; every problem is an AgentFileError naming the file and line (`agent.yaml:4: loadMode must be ...`).
 * @example const agent = await loadAgentFile("skillgraph.agent.yaml"); // { skills: ["/abs/skills"], model: { name: "qwen3" }, ... }
 */
export async function loadAgentFile(path: string): Promise<AgentFile> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new AgentFileError({
      file,
      message:
        code === "ENOENT"
          ? "does not exist"
          : code === "EISDIR"
            ? "is a folder, not an agent file"
            : `cannot be read (${code})`,
    });
  }
  if (isAgentfile(file, text)) return parseAgentfile(file, text);
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    throw new AgentFileError({
      file,
      line: lines.linePos(first.pos[0]).line,
      message: `invalid ${basename(file) === "package.json" ? "JSON" : "YAML"}: ${first.message.split("\n")[0]}`,
    });
  }
  let root: unknown = doc.toJS();
  let prefix: string[] = [];
  if (basename(file) === "package.json") {
    if (!isRecord(root) || !("skillgraph" in root))
      throw new AgentFileError({ file, message: 'has no "skillgraph" key' });
    root = root.skillgraph;
    prefix = ["skillgraph"];
  }
  const at = (keys: readonly (string | number)[]) => lineOf(doc, lines, [...prefix, ...keys]);
  const fail = (keys: readonly (string | number)[], message: string): never => {
    throw new AgentFileError({ file, line: at(keys), message });
  };
  if (!isRecord(root)) fail([], "must be a mapping of settings");
  const data = root as Record<string, unknown>;
  for (const key of Object.keys(data))
    if (!TOP_KEYS.includes(key)) fail([key], `unknown setting '${key}' (known: ${TOP_KEYS.join(", ")})`);
  const base = dirname(file);
  const str = (keys: string[], value: unknown): string => {
    if (typeof value !== "string" || value.trim() === "") fail(keys, `${keys.join(".")} must be a non-empty string`);
    return value as string;
  };
  const list = (key: string): string[] | undefined => {
    const value = data[key];
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) fail([key], `${key} must be a list of strings`);
    return (value as unknown[]).map((entry, index) => str([key, String(index)], entry));
  };
  const agent: AgentFile = {
    file,
    skills: (list("skills") ?? []).map((dir) => (isAbsolute(dir) ? dir : resolve(base, dir))),
  };
  if (data.model !== undefined) {
    if (typeof data.model === "string") agent.model = { name: str(["model"], data.model) };
    else if (isRecord(data.model)) {
      const parameters = Object.keys(MODEL_PARAMETER_RULES);
      for (const key of Object.keys(data.model))
        if (key !== "name" && key !== "baseUrl" && !parameters.includes(key))
          fail(["model", key], `unknown model setting '${key}' (known: name, baseUrl, ${parameters.join(", ")})`);
      agent.model = {
        ...(data.model.name === undefined ? {} : { name: str(["model", "name"], data.model.name) }),
        ...(data.model.baseUrl === undefined ? {} : { baseUrl: str(["model", "baseUrl"], data.model.baseUrl) }),
      };
      Object.assign(
        agent.model,
        readModelParameters(data.model, (key, message) => fail(["model", key], message)),
      );
    } else fail(["model"], "model must be a name or { name, baseUrl }");
  }
  if (data.systemPrompt !== undefined) agent.systemPrompt = str(["systemPrompt"], data.systemPrompt);
  const only = list("only");
  const exclude = list("exclude");
  if (only) agent.only = only;
  if (exclude) agent.exclude = exclude;
  if (data.loadMode !== undefined) {
    if (!LOAD_MODES.includes(data.loadMode as string))
      fail(["loadMode"], `loadMode must be one of ${LOAD_MODES.join(", ")}`);
    agent.loadMode = data.loadMode as AgentFile["loadMode"];
  }
  if (data.loadModes !== undefined) {
    if (!isRecord(data.loadModes)) fail(["loadModes"], "loadModes must map skill names to turn, once or session");
    const modes: Record<string, NonNullable<AgentFile["loadMode"]>> = {};
    for (const [name, mode] of Object.entries(data.loadModes as Record<string, unknown>)) {
      if (!LOAD_MODES.includes(mode as string))
        fail(["loadModes", name], `loadModes.${name} must be one of ${LOAD_MODES.join(", ")}`);
      modes[name] = mode as NonNullable<AgentFile["loadMode"]>;
    }
    agent.loadModes = modes;
  }
  if (data.shell !== undefined) {
    if (!isRecord(data.shell)) fail(["shell"], "shell must be { executor, approval, alwaysOn }");
    const shell = data.shell as Record<string, unknown>;
    for (const key of Object.keys(shell))
      if (key !== "executor" && key !== "approval" && key !== "alwaysOn")
        fail(["shell", key], `unknown shell setting '${key}' (known: executor, approval, alwaysOn)`);
    agent.shell = {};
    if (shell.alwaysOn !== undefined) {
      if (typeof shell.alwaysOn !== "boolean") fail(["shell", "alwaysOn"], "shell.alwaysOn must be true or false");
      agent.shell.alwaysOn = shell.alwaysOn as boolean;
    }
    if (shell.executor !== undefined) {
      if (!["sandbox", "unsafe-local", "off"].includes(shell.executor as string))
        fail(["shell", "executor"], "shell.executor must be sandbox, unsafe-local or off");
      agent.shell.executor = shell.executor as NonNullable<AgentFile["shell"]>["executor"];
    }
    if (shell.approval !== undefined) {
      if (!["ask", "approve-all", "deny-all"].includes(shell.approval as string))
        fail(["shell", "approval"], "shell.approval must be ask, approve-all or deny-all");
      agent.shell.approval = shell.approval as NonNullable<AgentFile["shell"]>["approval"];
    }
  }
  if (data.agentType !== undefined) {
    if (!(AGENT_TYPES as readonly unknown[]).includes(data.agentType))
      fail(["agentType"], `agentType must be ${AGENT_TYPES.join(" or ")}`);
    agent.agentType = data.agentType as AgentFile["agentType"];
  }
  if (data.checkpointer !== undefined) {
    const url = str(["checkpointer"], data.checkpointer);
    agent.checkpointer =
      url.startsWith("sqlite:") && url !== "sqlite::memory:" && !isAbsolute(url.slice(7))
        ? `sqlite:${resolve(base, url.slice(7))}`
        : url;
  }
  return agent;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The 1-based line of the node at `path` (the key's line for a mapping entry), or of the nearest parent found. */
function lineOf(doc: Document, lines: LineCounter, path: readonly (string | number)[]): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const keys = path.slice(0, depth);
    if (keys.length > 0) {
      const parent = keys.length === 1 ? doc.contents : doc.getIn(keys.slice(0, -1), true);
      if (isMap(parent)) {
        const pair = parent.items.find((item) => isScalar(item.key) && String(item.key.value) === String(keys.at(-1)));
        const offset = (pair?.key as { range?: [number, number, number] } | undefined)?.range?.[0];
        if (offset !== undefined) return lines.linePos(offset).line;
      }
    }
    const node = keys.length === 0 ? doc.contents : doc.getIn(keys, true);
    const offset = (node as { range?: [number, number, number] } | null | undefined)?.range?.[0];
    if (offset !== undefined) return lines.linePos(offset).line;
  }
  return undefined;
}
