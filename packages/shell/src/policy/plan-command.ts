// Planning a command line: parse once, walk every command, check each (preflight without the file system, plan with it).
import { existsSync } from "node:fs";
import path from "node:path";
import { bashParserReady } from "../command/bash-parser.js";
import { PLAN_TIME_BOX_MESSAGE, PlanBudget } from "../command/plan-budget.js";
import { walkShellLine } from "../command/walk-shell-line.js";
import { isInsideFolder } from "../internal/core.js";
import { checkShellLine, type CheckedLine } from "./check-shell-line.js";
import type { CommandCheck, CommandCheckInput } from "./command-check-types.js";
import type { CommandPolicy } from "./command-policy.js";
import { checkEnvName } from "./env-names.js";
import { hasParentSegment, realpathOfNearest, realpathOrUndefined } from "./path-confinement.js";
import { WARM_UP_LINE } from "../command/warm-up-line.js";
import { workspaceVariables } from "../command/workspace-variables.js";
import { type Refusal, refusal } from "./refusal.js";

export type {
  CheckedCommand,
  CommandCheck,
  CommandCheckInput,
  CommandPlan,
  CommandSkill,
  ParsedCommand,
} from "./command-check-types.js";

/** Variables whose values the checker knows before running (host paths; the command sees its own view of them). */
function knownVariables(input: CommandCheckInput): Record<string, string> {
  const known: Record<string, string> = workspaceVariables(input.workspaceDir);
  if (input.skill?.dir) {
    known.SKILL_DIR = input.skill.dir;
    known.SKILLS_DIR = path.dirname(input.skill.dir);
    known.SKILL_NAME = input.skill.name;
  }
  // each run's own folder under runs/ (named when it runs): a folder of the workspace
  known.RUN_DIR = path.join(input.workspaceDir, "runs", "run");
  return known;
}

/** Where each workspace variable points, relative to the workspace. */
const WORKSPACE_CWD: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(workspaceVariables("/w")).map(([name, value]) => [name, path.posix.relative("/w", value) || "."]),
);

/** `cwd` as a path relative to the workspace: a leading workspace variable (`$OUTPUT_DIR/x`, `${WORK_DIR}`) resolved. */
export function relativeCwd(cwd: string | undefined): string {
  const text = cwd ?? ".";
  const match = /^\$(?:\{([A-Z_]+)\}|([A-Z_]+))(\/.*)?$/.exec(text);
  const base = match ? WORKSPACE_CWD[(match[1] ?? match[2]) as string] : undefined;
  if (base === undefined) return text;
  return path.posix.join(base, match?.[3] ?? ".");
}

/** False until this thread has checked a line. */
let checkerWarm = false;

function checkLine(input: CommandCheckInput, policy: CommandPolicy, fileSystem: boolean): CheckedLine | Refusal {
  if (!checkerWarm) {
    checkerWarm = true;
    checkLineOnce({ ...input, command: WARM_UP_LINE, env: {}, cwd: "." }, policy, {
      fileSystem,
      budget: new PlanBudget(Number.POSITIVE_INFINITY),
    });
  }
  return checkLineOnce(input, policy, { fileSystem, budget: new PlanBudget() });
}

function checkLineOnce(
  input: CommandCheckInput,
  policy: CommandPolicy,
  { fileSystem, budget }: { fileSystem: boolean; budget: PlanBudget },
): CheckedLine | Refusal {
  for (const name of Object.keys(input.env ?? {})) {
    const problem = checkEnvName(name, policy);
    if (problem) return problem;
  }
  if (input.command.includes("\0")) return refusal("nul-byte", "the command contains a NUL byte");
  const cwdText = relativeCwd(input.cwd);
  if (cwdText.includes("\0")) return refusal("nul-byte", "cwd contains a NUL byte");
  if (path.isAbsolute(cwdText)) return refusal("absolute-path", `cwd '${cwdText}' must be relative to the workspace`);
  if (hasParentSegment(cwdText)) return refusal("path-traversal", `cwd '${cwdText}' may not contain '..'`);
  if (input.command.trim() === "") return refusal("empty-command", "the command is empty");
  const cwd = path.resolve(input.workspaceDir, cwdText);
  const line = walkShellLine(input.command, knownVariables(input), budget);
  return checkShellLine(input, policy, line, { cwd, fileSystem, budget });
}

/**
 * The checks that need no file system (cheap enough for `authorize` on every call): env names, cwd, one parse of the
 * line, and for every command it can run the deny and allow lists, grants, builtins and opaque pieces. Before the
 * bash grammar has loaded (the first milliseconds of a process), or when the line outlasts the time box, it passes the
 * call on: the tool runs {@link planCommand}, which checks everything, before anything runs.
 */
export function preflightCommand(input: CommandCheckInput, policy: CommandPolicy): { ok: true } | Refusal {
  if (!bashParserReady()) return { ok: true };
  const checked = checkLine(input, policy, false);
  // past the time box (the first call of a process also compiles the checker) the full plan decides, as above
  return checked.ok || isTimeBoxRefusal(checked) ? { ok: true } : checked;
}

/** True for the refusal of a line whose checking outlasted the time box (planning it again may fit). */
export function isTimeBoxRefusal(refused: Refusal): boolean {
  return refused.message.startsWith(PLAN_TIME_BOX_MESSAGE);
}

/**
 * All checks, including the file system: cwd resolved with symlinks, every program found on the fixed PATH (never the
 * workspace) or in the skill's scripts/, denied by its real name too, paths in arguments and redirections kept inside
 * the workspace and the skill folder (when confinePaths). Needs the bash grammar loaded (`loadBashParser()`).
 * @param input the command and where it runs
 * @param policy allow/deny lists and path rules
 * @example planCommand({ command: "git status | head -5", mode: "shell", loadedSkills: [], workspaceDir: "/tmp/ws" }, policy)
 */
export function planCommand(input: CommandCheckInput, policy: CommandPolicy): CommandCheck {
  const cwdText = relativeCwd(input.cwd);
  const checked = checkLine(input, policy, true);
  if (!checked.ok) return checked;
  const cwd = path.resolve(input.workspaceDir, cwdText);
  const workspaceReal = realpathOrUndefined(input.workspaceDir) ?? input.workspaceDir;
  if (!isInsideFolder(realpathOfNearest(cwd), workspaceReal))
    return refusal("symlink-escape", `cwd '${input.cwd}' leads outside the workspace through a symlink`);
  if (!existsSync(cwd)) return refusal("not-found", `cwd '${input.cwd}' does not exist in the workspace`);
  const first = checked.commands[0];
  return {
    ok: true,
    plan: {
      command: checked.run,
      display: input.command,
      programArgv: first ? [...first.argv] : [],
      layers: checked.commands.flatMap((command) => command.layers),
      commands: checked.commands,
      opaque: checked.opaque,
      redirectedFrom: checked.redirectedFrom,
      cwd,
    },
  };
}
