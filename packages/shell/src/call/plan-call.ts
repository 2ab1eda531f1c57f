// The plan step of a tool call: the thread's workspace and the skill's environment, then one parse of the line and
// every command it can run checked against the policy.
import { prepareSkillEnvironment } from "../environments/prepare-skill-environment.js";
import type { CommandPlan } from "../policy/command-check-types.js";
import { isTimeBoxRefusal, planCommand } from "../policy/plan-command.js";
import { type Refusal, refusal } from "../policy/refusal.js";
import { missingRequirements } from "../requirements/check-requirements.js";
import type { ShellRuntime } from "../runtime/shell-runtime.js";
import type { CallSkills, PlannedCall, ValidatedCall } from "./call-types.js";
import type { CommandCallInput } from "../tools/command-call-input.js";

/** A planned line: the plan and the line as shown to the model and the approver (paths as the command sees them). */
export type PlannedLine = { ok: true; plan: CommandPlan; display: string } | Refusal;

/** The line with host paths replaced by the paths the command sees (the executor's view). */
function displayLine(runtime: ShellRuntime, plan: CommandPlan, context: CallSkills, workspaceDir: string): string {
  const view = runtime.executor.view({ workspaceDir, skillDir: context.skill?.dir });
  let display = plan.display;
  if (context.skill?.dir && view.skillDir) display = display.replaceAll(context.skill.dir, view.skillDir);
  return display.replaceAll(workspaceDir, view.workspaceDir);
}

/** The refusal naming the programs the skill declares it needs and the fixed PATH lacks, if any. */
function missingRequirementsOf(runtime: ShellRuntime, context: CallSkills): Refusal | undefined {
  if (!context.skill || !runtime.checkRequirements) return undefined;
  const metadata = runtime.catalog.get(context.skill.name);
  const requirements = metadata ? missingRequirements(metadata, runtime.policy.fixedPath) : { missing: [] };
  if (requirements.missing.length === 0) return undefined;
  return refusal(
    "missing-requirements",
    `skill '${context.skill.name}' needs ${requirements.missing.join(", ")}, not found on ${runtime.policy.fixedPath}`,
  );
}

/**
 * Plans a line: one parse, every command checked against the policy (with the skill's environment first on PATH when
 * it has one), and the skill's required programs present.
 */
export function planLine(
  runtime: ShellRuntime,
  input: CommandCallInput,
  context: CallSkills,
  workspaceDir: string,
  environmentDir: string | undefined,
): PlannedLine {
  const policy = environmentDir
    ? { ...runtime.policy, fixedPath: `${environmentDir}/bin:${runtime.policy.fixedPath}` }
    : runtime.policy;
  const checked = planCommand(
    {
      command: input.command,
      mode: input.tool === "run_skill_script" ? "skill" : "shell",
      skill: context.skill,
      loadedSkills: context.loaded,
      workspaceDir,
      cwd: input.cwd,
      env: input.env,
    },
    policy,
  );
  if (!checked.ok) return checked;
  const display = displayLine(runtime, checked.plan, context, workspaceDir);
  return missingRequirementsOf(runtime, context) ?? { ok: true, plan: checked.plan, display };
}

/**
 * The plan step: the thread's workspace, the skill's own environment (installed after approval when needed; first on
 * PATH for policy and command alike), then the line planned once.
 */
export async function planCall(runtime: ShellRuntime, call: ValidatedCall): Promise<PlannedCall | Refusal> {
  const workspaceDir = await runtime.workspaces.ensure(call.threadId);
  const environment = call.skill
    ? await prepareSkillEnvironment(runtime, call.skill, workspaceDir, call.config)
    : { ok: true as const };
  if (!environment.ok) return environment;
  let planned = planLine(runtime, call.input, call, workspaceDir, environment.hostDir);
  if (!planned.ok && isTimeBoxRefusal(planned)) {
    // the first plan of a process also compiles the checker's code: once more, after the event loop had a turn
    await new Promise<void>((resolve) => setImmediate(resolve));
    planned = planLine(runtime, call.input, call, workspaceDir, environment.hostDir);
  }
  if (!planned.ok) return planned;
  return {
    ...call,
    workspaceDir,
    ...(environment.hostDir ? { environmentDir: environment.hostDir } : {}),
    plan: planned.plan,
    display: planned.display,
  };
}
