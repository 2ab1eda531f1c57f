// The policy's own options as zod schemas (allow/deny rules, approval rules, paths, syntax, the environment
// allow-list), and the step that turns them into the CommandPolicy. The shell hook's options compose these.
import path from "node:path";
import { z } from "zod";
import { InvalidOptionsError } from "../internal/core.js";
import { absolutePath, stringList } from "../internal/zod-options.js";
import type { ApprovalCandidate } from "./approval-types.js";
import {
  DEFAULT_ALLOWED_ENV_NAMES,
  DEFAULT_DENIED_PROGRAMS,
  RESERVED_ENV_NAMES,
  type CommandPolicy,
} from "./command-policy.js";
import { parseCommandRule, type CommandRule } from "./command-rules.js";
import { DEFAULT_FIXED_PATH } from "./program-resolution.js";

/** Absolute paths arguments may always name, unless the `readablePaths` option says otherwise. */
export const DEFAULT_READABLE_PATHS: readonly string[] = [
  "/dev/null",
  "/dev/zero",
  "/dev/urandom",
  "/dev/random",
  "/dev/stdin",
  "/dev/stdout",
  "/dev/stderr",
];

/** A name a tool call or the `set` option may give a value: valid, and not one the runtime sets itself. */
function isSettableName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !RESERVED_ENV_NAMES.has(name) && !name.startsWith("SKILLGRAPH_");
}

/** The `environment` option: names a call may set, and fixed values every command gets. */
export const environmentOptionSchema = z
  .object(
    {
      /** Names a tool call may set in `env` (or as `env NAME=value`). @default ["TZ", "NO_COLOR", "COLUMNS", "LINES"] */
      allow: z
        .array(
          z.string({ error: "must be an array of strings" }).refine(isSettableName, {
            error: (issue) => `'${String(issue.input)}' is not a valid name or is set by the runtime itself`,
          }),
          { error: "must be an array of strings" },
        )
        .default([...DEFAULT_ALLOWED_ENV_NAMES]),
      /** Fixed values every command gets (e.g. a proxy setting). Reserved names (PATH, HOME, ...) are refused. */
      set: z
        .record(
          z.string().refine(isSettableName, { error: "must be a valid, non-reserved name with a string value" }),
          z
            .string({ error: "must be a valid, non-reserved name with a string value" })
            .refine((value) => !value.includes("\0"), {
              error: "must be a valid, non-reserved name with a string value",
            }),
          { error: "must be an object of strings" },
        )
        .default({}),
    },
    { error: "must be an object" },
  )
  .default({ allow: [...DEFAULT_ALLOWED_ENV_NAMES], set: {} });

const approvalRuleSchema = z.union(
  [
    z.string(),
    z.instanceof(RegExp),
    z.custom<(candidate: ApprovalCandidate) => boolean>((value) => typeof value === "function"),
  ],
  { error: "must be a command prefix string, a RegExp or a function" },
);

/** The policy's part of the shell hook's options (documented on ShellHookOptions). */
export const policyOptionFields = {
  allow: stringList().optional(),
  deny: stringList().default([...DEFAULT_DENIED_PROGRAMS]),
  requireApproval: z.array(approvalRuleSchema, { error: "must be an array of rules" }).default([]),
  shellSyntax: z.enum(["full", "simple"], { error: "must be 'full' or 'simple'" }).default("full"),
  confinePaths: z.boolean({ error: "must be a boolean" }).default(true),
  readablePaths: z
    .array(absolutePath("every entry must be an absolute path"), { error: "must be an array of strings" })
    .default([...DEFAULT_READABLE_PATHS]),
  fixedPath: z
    .string({ error: "must be a string" })
    .refine((value) => value.split(":").every((dir) => path.isAbsolute(dir)), {
      error: "every entry must be an absolute folder",
    })
    .default(DEFAULT_FIXED_PATH),
  environment: environmentOptionSchema,
};

/** Parses `allow` / `deny` entries into command rules (a deny rule must name a program). */
export function commandRules(option: "allow" | "deny", texts: readonly string[]): CommandRule[] {
  return texts.map((text, index) => {
    const rule = parseCommandRule(text, option, { prefix: option === "deny" });
    if (!rule || (rule.prefix.length === 0 && option === "deny")) {
      throw new InvalidOptionsError({
        option: `${option}[${index}]`,
        value: text,
        message: `'${text}' is not a plain command prefix such as 'git status' or 'python3'`,
      });
    }
    return rule;
  });
}

/** The policy's options after parsing. */
type PolicyOptions = z.output<z.ZodObject<typeof policyOptionFields>>;

/**
 * The CommandPolicy of parsed options (rules parsed; `opaqueNeedsApproval` when approval rules are set; `unsandboxed`
 * when the executor is not bubblewrap).
 */
export function commandPolicy(
  options: PolicyOptions,
  opaqueNeedsApproval: boolean,
  unsandboxed = false,
): CommandPolicy {
  return {
    allow: options.allow === undefined ? undefined : commandRules("allow", options.allow),
    deny: commandRules("deny", options.deny),
    fixedPath: options.fixedPath,
    confinePaths: options.confinePaths,
    readablePaths: options.readablePaths,
    syntax: options.shellSyntax,
    opaqueNeedsApproval,
    unsandboxed,
    fixedEnvNames: new Set(Object.keys(options.environment.set)),
    envAllow: new Set(options.environment.allow),
  };
}
