import { readFile } from "node:fs/promises";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { isMap, isScalar, LineCounter, parseDocument, type Document } from "yaml";
import { AgentFileError } from "./agent-file-error.js";
import { agentFileProblem, agentFileSettingsSchema, type AgentFileSettings } from "./agent-file-schema.js";
import type { AgentFile } from "./agent-file-types.js";
import { isAgentfile, parseAgentfile } from "./parse-agentfile.js";

/** File names `findAgentFile` looks for. */
export const AGENT_FILE_NAMES = ["skillgraph.agent.yaml", "skillgraph.agent.yml"] as const;

/**
 * Reads a declarative agent: `skillgraph.agent.yaml` (YAML), a package.json with a `skillgraph` key, or an Ollama-style
 * Agentfile (`FROM`, `SKILL`, `AGENT_TYPE`, `SYSTEM`, `PARAMETER`; see parseAgentfile). The settings are checked by one
 * schema (agent-file-schema.ts); every problem is an AgentFileError naming the file and line
 * (`agent.yaml:4: loadMode must be ...`).
 * @example const agent = await loadAgentFile("skillgraph.agent.yaml"); // { skills: ["/abs/skills"], model: { name: "qwen3" }, ... }
 */
export async function loadAgentFile(path: string): Promise<AgentFile> {
  const file = resolve(path);
  const text = await readAgentFile(file);
  if (isAgentfile(file, text)) return parseAgentfile(file, text);
  const parsed = parseSettings(file, text);
  const settings = validateSettings(file, parsed);
  return resolvePaths(file, settings);
}

/** The file's text; a missing, unreadable file or a folder is an AgentFileError. */
async function readAgentFile(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
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
}

/** Parsed settings with what finds their lines: the YAML (or JSON) document and the path of the settings in it. */
interface ParsedSettings {
  value: unknown;
  doc: Document;
  lines: LineCounter;
  prefix: string[];
}

/** Parses YAML (package.json is JSON, a subset): its settings are the whole document, or package.json's `skillgraph`. */
function parseSettings(file: string, text: string): ParsedSettings {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const packageJson = basename(file) === "package.json";
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    throw new AgentFileError({
      file,
      line: lines.linePos(first.pos[0]).line,
      message: `invalid ${packageJson ? "JSON" : "YAML"}: ${first.message.split("\n")[0]}`,
    });
  }
  const value: unknown = doc.toJS();
  if (!packageJson) return { value, doc, lines, prefix: [] };
  if (typeof value !== "object" || value === null || Array.isArray(value) || !("skillgraph" in value))
    throw new AgentFileError({ file, message: 'has no "skillgraph" key' });
  return { value: value.skillgraph, doc, lines, prefix: ["skillgraph"] };
}

/** The settings checked by the schema; the first problem in the file (by line) is an AgentFileError at its line. */
function validateSettings(file: string, { value, doc, lines, prefix }: ParsedSettings): AgentFileSettings {
  const result = agentFileSettingsSchema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const { path, message } = agentFileProblem(issue);
    return { line: lineOf(doc, lines, [...prefix, ...path]), message };
  });
  const first = problems.reduce((a, b) => ((b.line ?? Infinity) < (a.line ?? Infinity) ? b : a));
  throw new AgentFileError({ file, line: first.line, message: first.message });
}

/** The agent file with skill folders and a sqlite checkpointer's file resolved against the file's folder. */
function resolvePaths(file: string, settings: AgentFileSettings): AgentFile {
  const base = dirname(file);
  const { skills, checkpointer, ...rest } = settings;
  const agent: AgentFile = { file, skills: skills.map((dir) => (isAbsolute(dir) ? dir : resolve(base, dir))), ...rest };
  if (checkpointer !== undefined)
    agent.checkpointer =
      checkpointer.startsWith("sqlite:") && checkpointer !== "sqlite::memory:" && !isAbsolute(checkpointer.slice(7))
        ? `sqlite:${resolve(base, checkpointer.slice(7))}`
        : checkpointer;
  return agent;
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
