// `skillgraph sessions`' command line: parseArgs reads it, a zod schema checks it and types it as one action.
import { z } from "zod";
import type { CliIO } from "../../io/cli-io.js";
import { booleanFlag, flagsSchema, listFlag, readFlags, stringFlag } from "../../io/flag-table.js";
import type { createStyle } from "../../output/style.js";
import { CHECKPOINT_FLAG } from "../../stores/sessions-url.js";
import { UsageError } from "../../io/usage-error.js";
import { parseDuration } from "./parse-duration.js";

/** Every flag of `skillgraph sessions`, in help order (the actions are positional). */
export const sessionsFlags = {
  checkpoint: CHECKPOINT_FLAG,
  json: booleanFlag("print JSON instead of text"),
  keepLast: stringFlag("N", "prune: keep the last N checkpoints of each session (and what a resume needs)", {
    default: "none",
  }),
  maxAge: stringFlag("D", "prune: drop checkpoints older than D (e.g. 30m, 12h, 7d)", { default: "none" }),
  dryRun: booleanFlag("repair: say what it would do, write nothing"),
  skills: listFlag("DIR", "show: skill folders to check loaded skills against for drift (repeatable)", {
    default: "the conventional skill folders",
  }),
};

const ACTIONS = ["list", "show", "repair", "prune", "delete"] as const;

/** What every action shares: the flags that are not the action's own. */
interface SessionsFlags {
  checkpoint: string | undefined;
  json: boolean;
  /** show: skill folders to check loaded skills against (none: the conventional ones). */
  skills: string[];
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
  return readFlags(sessionsFlags, args, { positionals: true });
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
    values: flagsSchema(sessionsFlags),
  })
  .transform((args, context): SessionsCommand => {
    const problem = (message: string) => {
      context.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    const action = actionOf(args.positionals);
    if (typeof action === "string") return problem(action);
    const keepLast = keepLastOf(args.values.keepLast);
    if (typeof keepLast === "string") return problem(keepLast);
    const maxAgeMs = maxAgeOf(args.values.maxAge);
    if (typeof maxAgeMs === "string") return problem(maxAgeMs);
    if (action.action === "prune" && keepLast === undefined && maxAgeMs === undefined)
      return problem("prune needs --keep-last N and/or --max-age D");
    const flags = { checkpoint: args.values.checkpoint, json: args.values.json, skills: args.values.skills };
    if (action.action === "list") return { ...flags, action: "list" };
    if (action.action === "prune") return { ...flags, action: "prune", name: action.name, keepLast, maxAgeMs };
    if (action.action === "repair")
      return { ...flags, action: "repair", name: action.name!, dryRun: args.values.dryRun };
    if (args.values.dryRun) return problem("--dry-run is for repair");
    return { ...flags, action: action.action, name: action.name! };
  });
