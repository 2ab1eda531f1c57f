import { existsSync } from "node:fs";
import type { CommandCheckInput } from "./command-check-input.js";
import type { CommandCheck } from "./command-plan.js";
import type { CommandPolicy } from "./command-policy.js";
import { programName } from "./command-rule.js";
import { isInside, realpathOfNearest, realpathOrUndefined } from "./confine-path.js";
import { confineArguments } from "./confine-arguments.js";
import { describeArgv } from "./describe-argv.js";
import type { ParsedCommand } from "./parsed-command.js";
import { preflightCommand } from "./preflight-command.js";
import { refusal } from "./refusal.js";
import { resolveProgram } from "./resolve-program.js";

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
  if (!isInside(workspaceReal, cwdReal)) return refusal("symlink-escape", `cwd '${input.cwd}' leads outside the workspace through a symlink`);
  if (!existsSync(cwd)) return refusal("not-found", `cwd '${input.cwd}' does not exist in the workspace`);
  if (policy.allowShellSyntax) {
    return { ok: true, plan: { shell: true, command: input.command, programArgv: ["sh", "-c", input.command], layers: [], cwd, display: input.command } };
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
