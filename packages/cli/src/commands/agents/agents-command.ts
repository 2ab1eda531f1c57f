// `skillgraph agents`' command line: the flag table generates the parser and the help, a zod schema checks the
// flags and the positional action and types them as one command.
import { z } from "zod";
import { booleanFlag, flagsSchema, readFlags, stringFlag } from "../../io/flag-table.js";

/** Every flag of `skillgraph agents`, in help order (the actions are positional). */
export const agentsFlags = {
  file: stringFlag("FILE", "create: the agent file to read (checked, paths made absolute)", {
    short: "f",
    default: "none",
  }),
  force: booleanFlag("create: replace an agent of the same name"),
  json: booleanFlag("show, list: print JSON"),
};

const ACTIONS = ["create", "show", "list", "delete"] as const;

/** One checked `skillgraph agents` command. */
export type AgentsCommand = { json: boolean } & (
  | { action: "list" }
  | { action: "show" | "delete"; name: string }
  | { action: "create"; name: string; file: string; force: boolean }
);

/** The arguments as given (unknown flags are refused here, with parseArgs' own message). */
export function readAgentsArgs(args: string[]) {
  return readFlags(agentsFlags, args, { positionals: true });
}

/** The action and its NAME, or the message saying what is wrong with them. */
function actionOf(positionals: string[]): { action: (typeof ACTIONS)[number]; name: string | undefined } | string {
  const [action, name, ...extra] = positionals;
  if (!action) return "missing action: create, show, list or delete";
  if (!(ACTIONS as readonly string[]).includes(action)) return `unknown action '${action}'`;
  if (action !== "list" && !name) return `${action} needs an agent NAME`;
  if (extra.length > 0 || (action === "list" && name)) return `unexpected argument '${extra[0] ?? name}'`;
  return { action: action as (typeof ACTIONS)[number], name };
}

/** The command line checked in the order a reader would: the action, its NAME, then what create needs. */
export const agentsCommandSchema = z
  .object({
    positionals: z.array(z.string()),
    values: flagsSchema(agentsFlags),
  })
  .transform((args, context): AgentsCommand => {
    const problem = (message: string) => {
      context.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    const action = actionOf(args.positionals);
    if (typeof action === "string") return problem(action);
    const { json, file, force } = args.values;
    if (action.action === "list") return { json, action: "list" };
    if (action.action !== "create") return { json, action: action.action, name: action.name! };
    if (!file) return problem("create needs -f FILE");
    return { json, action: "create", name: action.name!, file, force };
  });
