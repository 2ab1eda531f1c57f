// `skillgraph chat`'s flags, declared once: the table below generates the parser, the help text and the zod schema
// (the edge of the command). Adding a flag is one line in `chatFlags`.
import { z } from "zod";
import { booleanFlag, flagsSchema, listFlag, readFlags, stringFlag } from "../../io/flag-table.js";
import { CHECKPOINT_FLAG } from "../../stores/sessions-url.js";

/** Seconds one model request may take before chat gives up on it. */
export const DEFAULT_TIMEOUT_SECONDS = 120;

/** Every flag of `skillgraph chat`, in help order. */
export const chatFlags = {
  prompt: stringFlag(
    "TEXT",
    "answer one prompt and exit (otherwise an interactive session); stdout gets only the final answer (the text after the last tool call) unless it is a terminal",
    { short: "p", default: "interactive" },
  ),
  json: booleanFlag("with -p: print { answer, toolCalls, loadedSkills, usage } as one JSON object"),
  skills: listFlag("DIR", "read skills from DIR (repeatable)", { default: "the conventional skill folders" }),
  session: stringFlag("NAME", "resume (or start) the named session", { default: "a new time-stamped session" }),
  checkpoint: CHECKPOINT_FLAG,
  ephemeral: booleanFlag("keep nothing (no session)"),
  model: stringFlag("NAME", "model name", { default: "$SKILLGRAPH_MODEL or gpt-4o-mini" }),
  baseURL: stringFlag("URL", "OpenAI-compatible endpoint", { default: "$OPENAI_BASE_URL or api.openai.com" }),
  system: stringFlag("TEXT", "the agent's system prompt (the skills list is appended)", {
    default: "a short terminal-assistant prompt",
  }),
  agent: stringFlag(
    "FILE|NAME",
    "a declarative agent (skillgraph.agent.yaml, a package.json 'skillgraph' key or an Ollama-style Agentfile), or the NAME of one saved with 'skillgraph agents create'; flags win over it",
    { default: "none" },
  ),
  trustAgentEndpoint: booleanFlag("send OPENAI_API_KEY to the agent file's model.baseUrl", {
    default: "off: that endpoint gets a placeholder key, with a warning",
  }),
  timeout: stringFlag("SECONDS", "give up on a model call after this long (wall clock: every retry included)", {
    default: String(DEFAULT_TIMEOUT_SECONDS),
  }),
  approveAll: booleanFlag("one-shot: run every command that needs approval"),
  denyAll: booleanFlag("one-shot: refuse every command that needs approval", {
    default: "refuse, with a notice naming --approve-all",
  }),
  unsafeLocal: booleanFlag(
    "run skill scripts on this machine unsandboxed (the local executor), even where bubblewrap works",
    { default: "off: bubblewrap, or no scripts without it" },
  ),
  shell: booleanFlag("offer the shell tool on every turn (tama's bash), not only once a skill that uses it is loaded", {
    default: "off (or the agent file's shell.alwaysOn)",
  }),
  quiet: booleanFlag("hide activity lines (skills, tools, session banner)", { short: "q" }),
  verbose: booleanFlag("list every skill that could not be loaded"),
};

/** The flags as given, keyed by option name (unknown flags are refused here, with parseArgs' own message). */
export function readChatFlags(args: string[]) {
  return readFlags(chatFlags, args).values as { agent?: string } & Record<string, unknown>;
}

/** The timeout flag as seconds (NaN when it is not a number). */
const timeoutSeconds = (timeout: string | undefined) =>
  timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : Number(timeout);

/** The checked options: the table's schema, the combinations that make no sense (in the order they are reported). */
export const chatOptionsSchema = flagsSchema(chatFlags)
  .superRefine((values, context) => {
    const problem = (message: string) => context.addIssue({ code: "custom", message });
    if (values.ephemeral && (values.session !== undefined || values.checkpoint !== undefined))
      problem("--ephemeral cannot be combined with --session or --checkpoint");
    if (values.json && values.prompt === undefined) problem("--json needs -p PROMPT (a one-shot run)");
    if (values.approveAll && values.denyAll) problem("--approve-all and --deny-all exclude each other");
    const seconds = timeoutSeconds(values.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0)
      problem(`--timeout must be a positive number of seconds, not '${values.timeout}'`);
  })
  // Derived, not renamed: the client takes milliseconds.
  .transform((values) => ({ ...values, timeoutMs: Math.round(timeoutSeconds(values.timeout) * 1000) }));

/** The checked options of one `skillgraph chat` run. */
export type ChatOptions = z.output<typeof chatOptionsSchema>;
