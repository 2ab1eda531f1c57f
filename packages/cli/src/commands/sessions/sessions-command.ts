// `skillgraph sessions`' command line: parseArgs reads it, a zod schema checks it and types it as one action.
import { parseArgs } from "node:util";
import { z } from "zod";
import type { CliIO } from "../../io/cli-io.js";
import type { createStyle } from "../../output/style.js";
import { UsageError } from "../../io/usage-error.js";
import { parseDuration } from "./parse-duration.js";

const sessionsFlags = {
  checkpoint: { type: "string" },
  json: { type: "boolean" },
  "dry-run": { type: "boolean" },
  "keep-last": { type: "string" },
  "max-age": { type: "string" },
  skills: { type: "string", multiple: true },
} as const;

const ACTIONS = ["list", "show", "repair", "prune", "delete"] as const;

/** What every action shares: the flags that are not the action's own. */
interface SessionsFlags {
  checkpoint: string | undefined;
  json: boolean;
  /** show: skill folders to check loaded skills against. */
  skills: string[] | undefined;
}

/** One checked `skillgraph sessions` command. */
export type SessionsCommand = SessionsFlags &
  (
    | { action: "list" }
    | { action: "show" | "delete"; name: string }
    | { action: "repair"; name: string; dryRun: boolean }
    | { action: "prune"; name: string | undefined; keepLast: number | undefined; maxAgeMs: number | undefined }
  );

/** What an action writes to and reads from. */
export interface SessionsContext {
  io: CliIO;
  /** The checkpointer URL the sessions live in. */
  url: string;
  /** Writes one line to stdout. */
  out: (text: string) => void;
  style: ReturnType<typeof createStyle>;
  /** --json: one JSON object instead of text. */
  json: boolean;
}

/** The arguments as given (unknown flags are refused here, with parseArgs' own message). */
export function readSessionsArgs(args: string[]) {
  return parseArgs({ args, options: sessionsFlags, allowPositionals: true });
}

/** `--keep-last`: a positive integer (undefined when absent). */
function keepLastOf(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  const keepLast = Number(text);
  return Number.isInteger(keepLast) && keepLast > 0 ? keepLast : `--keep-last '${text}' must be a positive integer`;
}

/** `--max-age`: milliseconds, or the message saying why the text is not a duration (undefined when absent). */
function maxAgeOf(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  try {
    return parseDuration(text, "--max-age");
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
}

/** The action and its NAME, or the message saying what is wrong with them. */
function actionOf(positionals: string[]): { action: (typeof ACTIONS)[number]; name: string | undefined } | string {
  const [action, name, ...extra] = positionals;
  if (!action) return "missing action: list, show, repair, prune or delete";
  if (!(ACTIONS as readonly string[]).includes(action)) return `unknown action '${action}'`;
  if ((action === "show" || action === "repair" || action === "delete") && !name)
    return `${action} needs a session NAME`;
  if (extra.length > 0 || (action === "list" && name)) return `unexpected argument '${extra[0] ?? name}'`;
  return { action: action as (typeof ACTIONS)[number], name };
}

/** The command line checked in the order a reader would: the action, its NAME, then the prune policy. */
export const sessionsCommandSchema = z
  .object({
    positionals: z.array(z.string()),
    values: z.object({
      checkpoint: z.string().optional(),
      json: z.boolean().optional(),
      "dry-run": z.boolean().optional(),
      "keep-last": z.string().optional(),
      "max-age": z.string().optional(),
      skills: z.array(z.string()).optional(),
    }),
  })
  .transform((args, context): SessionsCommand => {
    const problem = (message: string) => {
      context.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    const action = actionOf(args.positionals);
    if (typeof action === "string") return problem(action);
    const keepLast = keepLastOf(args.values["keep-last"]);
    if (typeof keepLast === "string") return problem(keepLast);
    const maxAgeMs = maxAgeOf(args.values["max-age"]);
    if (typeof maxAgeMs === "string") return problem(maxAgeMs);
    if (action.action === "prune" && keepLast === undefined && maxAgeMs === undefined)
      return problem("prune needs --keep-last N and/or --max-age D");
    const flags = { checkpoint: args.values.checkpoint, json: args.values.json === true, skills: args.values.skills };
    if (action.action === "list") return { ...flags, action: "list" };
    if (action.action === "prune") return { ...flags, action: "prune", name: action.name, keepLast, maxAgeMs };
    if (action.action === "repair")
      return { ...flags, action: "repair", name: action.name!, dryRun: args.values["dry-run"] === true };
    if (args.values["dry-run"]) return problem("--dry-run is for repair");
    return { ...flags, action: action.action, name: action.name! };
  });
