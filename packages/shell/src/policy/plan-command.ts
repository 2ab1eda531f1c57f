// Planning a command: the checks without the file system (preflight) and with it (plan), and their shared types.
import { existsSync } from "node:fs";
import path from "node:path";
import { parseShellWords } from "../command/parse-shell-words.js";
import { describeArgv } from "../command/shell-quote.js";
import { isInsideFolder } from "../internal/core.js";
import { commandLayers } from "./command-layers.js";
import type { CommandPolicy } from "./command-policy.js";
import { isCommandAllowed, matchesCommandRule, programName } from "./command-rules.js";
import {
  checkScriptLocation,
  confineArguments,
  hasParentSegment,
  realpathOfNearest,
  realpathOrUndefined,
} from "./path-confinement.js";
import { resolveProgram } from "./program-resolution.js";
import { workspaceVariables } from "../workspace/workspace-variables.js";
import { type Refusal, refusal } from "./refusal.js";

/** The skill a command runs for (run_skill_script). */
export interface CommandSkill {
  name: string;
  dir: string;
  allowedTools: readonly string[];
}

/** What to check: the command line and where it runs. */
export interface CommandCheckInput {
  command: string;
  /** `skill`: run_skill_script (relative executables resolve in the skill folder); `shell`: the general shell tool. */
  mode: "skill" | "shell";
  skill?: CommandSkill;
  /** Skills loaded now: their `Bash(...)` grants extend the allow list. */
  loadedSkills: readonly CommandSkill[];
  /** Host path of the thread's workspace (need not exist yet for {@link preflightCommand}). */
  workspaceDir: string;
  /** Working directory relative to the workspace. */
  cwd?: string;
  env?: Readonly<Record<string, string>>;
}

/** A command line after preflight: argv as typed (variables expanded) and the host cwd it runs in. */
export interface ParsedCommand {
  argv: string[];
  cwd: string;
  /** The programs the line runs, outermost first (see command-layers.ts). */
  layers: string[][];
}

/** A command ready to run: absolute executable, host cwd, argv as typed (for approval rules and messages). */
export type CommandPlan =
  | { shell: false; argv: string[]; programArgv: string[]; layers: string[][]; cwd: string; display: string }
  | { shell: true; command: string; programArgv: string[]; layers: string[][]; cwd: string; display: string };

/** Result of a check. */
export type CommandCheck = { ok: true; plan: CommandPlan } | Refusal;

/**
 * The checks that need no file system (cheap enough for `authorize` on every call): env names, parsing, `..` and
 * absolute cwd, deny and allow lists on the typed program name, path-qualified executables outside `scripts/`.
 */
export function preflightCommand(
  input: CommandCheckInput,
  policy: CommandPolicy,
): { ok: true; argv: string[]; cwd: string; layers: string[][] } | Refusal {
  for (const name of Object.keys(input.env ?? {})) {
    const problem = checkEnvName(name, policy);
    if (problem) return problem;
  }
  const cwdText = input.cwd ?? ".";
  if (cwdText.includes("\0")) return refusal("nul-byte", "cwd contains a NUL byte");
  if (path.isAbsolute(cwdText)) return refusal("absolute-path", `cwd '${cwdText}' must be relative to the workspace`);
  if (hasParentSegment(cwdText)) return refusal("path-traversal", `cwd '${cwdText}' may not contain '..'`);
  const cwd = path.resolve(input.workspaceDir, cwdText);
  if (policy.allowShellSyntax) return { ok: true, argv: [], cwd, layers: [] };
  const variables: Record<string, string> = workspaceVariables(input.workspaceDir);
  if (input.skill?.dir) variables.SKILL_DIR = input.skill.dir;
  const parsed = parseShellWords(input.command, { variables });
  if (!parsed.ok) return parsed;
  const argv = parsed.argv;
  const first = argv[0] as string;
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(first)) {
    return refusal(
      "env-assignment",
      `'${first}' is an environment assignment; commands run without a shell and may not set variables this way`,
    );
  }
  if (first.includes("/")) {
    const scriptCheck = checkScriptLocation(first, input);
    if (!scriptCheck.ok) return scriptCheck;
  }
  const unwrapped = commandLayers(argv);
  const { layers } = unwrapped;
  for (const layer of layers) {
    const denied = policy.deny.find((rule) => matchesCommandRule(rule, layer));
    if (denied)
      return refusal(
        "denied",
        `'${describeArgv(layer)}' is denied (${denied.source})${layer === layers[0] ? "" : ` and runs inside '${programName(first)}'`}`,
      );
  }
  if (!unwrapped.ok) return refusal("opaque-command", unwrapped.message);
  for (const { name } of unwrapped.assignments) {
    const problem = checkEnvName(name, policy);
    if (problem) return problem;
  }
  // a skill's own script (path-qualified) needs no allow rule, but every program it wraps does
  const mustBeAllowed = first.includes("/") ? unwrapped.literal.slice(1) : unwrapped.literal;
  for (const layer of mustBeAllowed) {
    if (!isCommandAllowed(layer, input, policy)) {
      return refusal(
        "not-allowed",
        `'${describeArgv(layer)}' is not in the allow list nor granted by a loaded skill's allowed-tools`,
      );
    }
  }
  return { ok: true, argv, cwd, layers };
}

function checkEnvName(name: string, policy: CommandPolicy): Refusal | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    return refusal("env-not-allowed", `environment variable name '${name}' is not valid`);
  if (!policy.envAllow.has(name)) {
    const allowed = [...policy.envAllow].join(", ") || "none";
    return refusal(
      "env-not-allowed",
      `environment variable '${name}' may not be set by a tool call (allowed: ${allowed})`,
    );
  }
  return undefined;
}

/**
 * All checks, including the file system: cwd and executables resolved with symlinks, executable found on the fixed
 * PATH (never the workspace), arguments naming paths outside the workspace/skill folder refused (when confinePaths).
 * @param input the command and where it runs
 * @param policy allow/deny lists and path rules
 * @example planCommand({ command: "git status", mode: "shell", loadedSkills: [], workspaceDir: "/tmp/ws" }, policy)
 */
export function planCommand(input: CommandCheckInput, policy: CommandPolicy): CommandCheck {
  const preflight = preflightCommand(input, policy);
  if (!preflight.ok) return preflight;
  const { cwd } = preflight;
  const workspaceReal = realpathOrUndefined(input.workspaceDir) ?? input.workspaceDir;
  const cwdReal = realpathOfNearest(cwd);
  if (!isInsideFolder(cwdReal, workspaceReal))
    return refusal("symlink-escape", `cwd '${input.cwd}' leads outside the workspace through a symlink`);
  if (!existsSync(cwd)) return refusal("not-found", `cwd '${input.cwd}' does not exist in the workspace`);
  if (policy.allowShellSyntax) {
    return {
      ok: true,
      plan: {
        shell: true,
        command: input.command,
        programArgv: ["sh", "-c", input.command],
        layers: [],
        cwd,
        display: input.command,
      },
    };
  }
  const parsed: ParsedCommand = { argv: preflight.argv, cwd, layers: preflight.layers };
  const executable = resolveProgram(parsed, input, policy);
  if (!executable.ok) return executable;
  const args = confineArguments(parsed, input, policy);
  if (!args.ok) return args;
  const typed = preflight.argv;
  return {
    ok: true,
    plan: {
      shell: false,
      argv: [...executable.prefix, ...args.args],
      programArgv: [programName(typed[0] as string), ...typed.slice(1)],
      layers: preflight.layers,
      cwd,
      display: describeArgv(typed),
    },
  };
}
