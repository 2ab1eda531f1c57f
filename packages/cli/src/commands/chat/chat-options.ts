// `skillgraph chat`'s flags: read by parseArgs, then checked and typed by a zod schema (the edge of the command).
import { parseArgs } from "node:util";
import { z } from "zod";

/** Seconds one model request may take before chat gives up on it. */
export const DEFAULT_TIMEOUT_SECONDS = 120;

const chatFlags = {
  prompt: { type: "string", short: "p" },
  skills: { type: "string", multiple: true },
  model: { type: "string" },
  "base-url": { type: "string" },
  system: { type: "string" },
  quiet: { type: "boolean", short: "q" },
  verbose: { type: "boolean" },
  session: { type: "string" },
  checkpoint: { type: "string" },
  ephemeral: { type: "boolean" },
  timeout: { type: "string" },
  "approve-all": { type: "boolean" },
  "deny-all": { type: "boolean" },
  "unsafe-local": { type: "boolean" },
  shell: { type: "boolean" },
  agent: { type: "string" },
  "trust-agent-endpoint": { type: "boolean" },
  json: { type: "boolean" },
} as const;

/** The flags as given (unknown flags are refused here, with parseArgs' own message). */
export function readChatFlags(args: string[]) {
  return parseArgs({ args, options: chatFlags }).values;
}

const text = z.string().optional();
const flag = z.boolean().optional();

/** The timeout flag as seconds (NaN when it is not a number). */
const timeoutSeconds = (timeout: string | undefined) =>
  timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : Number(timeout);

const chatFlagsSchema = z.object({
  prompt: text,
  skills: z.array(z.string()).optional(),
  model: text,
  "base-url": text,
  system: text,
  quiet: flag,
  verbose: flag,
  session: text,
  checkpoint: text,
  ephemeral: flag,
  timeout: text,
  "approve-all": flag,
  "deny-all": flag,
  "unsafe-local": flag,
  shell: flag,
  agent: text,
  "trust-agent-endpoint": flag,
  json: flag,
});

/** The combinations that make no sense, in the order they are reported. */
export const chatOptionsSchema = chatFlagsSchema
  .superRefine((values, context) => {
    const problem = (message: string) => context.addIssue({ code: "custom", message });
    if (values.ephemeral && (values.session !== undefined || values.checkpoint !== undefined))
      problem("--ephemeral cannot be combined with --session or --checkpoint");
    if (values.json && values.prompt === undefined) problem("--json needs -p PROMPT (a one-shot run)");
    if (values["approve-all"] && values["deny-all"]) problem("--approve-all and --deny-all exclude each other");
    const seconds = timeoutSeconds(values.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0)
      problem(`--timeout must be a positive number of seconds, not '${values.timeout}'`);
  })
  .transform((values) => ({
    prompt: values.prompt,
    skills: values.skills ?? [],
    model: values.model,
    baseURL: values["base-url"],
    system: values.system,
    quiet: values.quiet === true,
    verbose: values.verbose === true,
    session: values.session,
    checkpoint: values.checkpoint,
    ephemeral: values.ephemeral === true,
    timeoutMs: Math.round(timeoutSeconds(values.timeout) * 1000),
    approveAll: values["approve-all"] === true,
    denyAll: values["deny-all"] === true,
    unsafeLocal: values["unsafe-local"] === true,
    shell: values.shell === true,
    trustAgentEndpoint: values["trust-agent-endpoint"] === true,
    json: values.json === true,
  }));

/** The checked options of one `skillgraph chat` run. */
export type ChatOptions = z.output<typeof chatOptionsSchema>;
