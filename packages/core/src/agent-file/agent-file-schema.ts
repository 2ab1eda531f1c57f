import { z } from "zod";
import type { AgentFile } from "./agent-file-types.js";
import { checkModelParameter, MODEL_PARAMETER_RULES, type AgentModelParameters } from "./model-parameters.js";
import { AGENT_TYPES } from "./parse-agentfile.js";

// The settings of a YAML agent file or of package.json's `skillgraph` key, as one zod schema. Every message says what
// the value must be, without the field: `agentFileProblem` puts the field's path in front (`loadModes.b must be one of
// turn, once, session`) and load-agent-file.ts the file and line.

const LOAD_MODES = ["turn", "once", "session"] as const;

const nonEmptyString = z
  .string({ error: "must be a non-empty string" })
  .refine((value) => value.trim() !== "", { error: "must be a non-empty string" });

const stringList = z.array(nonEmptyString, { error: "must be a list of strings" });

const loadMode = z.enum(LOAD_MODES, { error: `must be one of ${LOAD_MODES.join(", ")}` });

/** A model parameter: a number its rule accepts (`must be a number from 0 to 2, not '7'`). */
function modelParameter(key: keyof AgentModelParameters) {
  const outOfRange = (input: unknown) => `must be ${MODEL_PARAMETER_RULES[key].rule}, not '${String(input)}'`;
  // NaN and infinities are numbers zod refuses as such: they get the rule too.
  return z
    .number({ error: (issue) => (typeof issue.input === "number" ? outOfRange(issue.input) : "must be a number") })
    .refine((value) => !("error" in checkModelParameter(key, "", value)), {
      error: (issue) => outOfRange(issue.input),
    });
}

const modelSettings = z.strictObject(
  {
    name: nonEmptyString.optional(),
    baseUrl: nonEmptyString.optional(),
    temperature: modelParameter("temperature").optional(),
    topP: modelParameter("topP").optional(),
    maxTokens: modelParameter("maxTokens").optional(),
    stop: stringList.optional(),
  },
  { error: "must be a name or { name, baseUrl }" },
);

const shellSettings = z.strictObject(
  {
    executor: z.enum(["sandbox", "unsafe-local", "off"], { error: "must be sandbox, unsafe-local or off" }).optional(),
    approval: z
      .enum(["sandboxed", "ask", "approve-all", "deny-all"], {
        error: "must be sandboxed, ask, approve-all or deny-all",
      })
      .optional(),
    alwaysOn: z.boolean({ error: "must be true or false" }).optional(),
  },
  { error: "must be { executor, approval, alwaysOn }" },
);

/** The settings of an agent file, paths as written (relative ones are resolved against the file's folder later). */
export const agentFileSettingsSchema = z.strictObject(
  {
    // A model given by name alone (`model: qwen3`) is `{ name }`.
    model: z
      .preprocess(
        (value) => (typeof value === "string" && value.trim() !== "" ? { name: value } : value),
        modelSettings,
      )
      .optional(),
    systemPrompt: nonEmptyString.optional(),
    skills: stringList.default([]),
    only: stringList.optional(),
    exclude: stringList.optional(),
    loadMode: loadMode.optional(),
    loadModes: z.record(z.string(), loadMode, { error: "must map skill names to turn, once or session" }).optional(),
    shell: shellSettings.optional(),
    checkpointer: nonEmptyString.optional(),
    agentType: z.enum(AGENT_TYPES, { error: `must be ${AGENT_TYPES.join(" or ")}` }).optional(),
  },
  { error: "must be a mapping of settings" },
);

/** What the schema gives: an agent file but for its `file`, paths not yet resolved. */
export type AgentFileSettings = z.output<typeof agentFileSettingsSchema>;
// The schema describes exactly the public type (a compile error here when they drift apart); `ignored` is an
// Agentfile's report, not a setting.
const sameShape: (settings: AgentFileSettings) => Omit<AgentFile, "file" | "ignored"> = (settings) => settings;
void sameShape;

/** Known keys of each mapping, by path, for the message on an unknown one. */
const KNOWN_KEYS: Record<string, { what: string; keys: readonly string[] }> = {
  "": { what: "setting", keys: Object.keys(agentFileSettingsSchema.shape) },
  model: { what: "model setting", keys: Object.keys(modelSettings.shape) },
  shell: { what: "shell setting", keys: Object.keys(shellSettings.shape) },
};

/** One schema problem as the path of the offending value (a key's own path for an unknown key) and the message. */
export function agentFileProblem(issue: z.core.$ZodIssue): { path: Array<string | number>; message: string } {
  const path = issue.path.map((key) => (typeof key === "symbol" ? String(key) : key));
  if (issue.code === "unrecognized_keys") {
    const known = KNOWN_KEYS[path.join(".")] ?? { what: "setting", keys: [] };
    const key = issue.keys[0]!;
    return { path: [...path, key], message: `unknown ${known.what} '${key}' (known: ${known.keys.join(", ")})` };
  }
  return { path, message: path.length === 0 ? issue.message : `${path.join(".")} ${issue.message}` };
}
