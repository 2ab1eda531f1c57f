// The plan step of a tool call: the thread's workspace and the skill's environment, then one parse of the line and
// every command it can run checked against the policy.
import { prepareSkillEnvironment } from "./prepare-skill-environment.js";
import type { CommandPlan } from "../policy/command-check-types.js";
import { isTimeBoxRefusal, planCommand } from "../policy/plan-command.js";
import { type Refusal, refusal } from "../policy/refusal.js";
import { missingRequirements } from "../requirements/check-requirements.js";
import type { RuntimeView } from "../runtime/shell-runtime.js";
import type { CallSkills, PlannedCall, ValidatedCall } from "./call-types.js";
import type { CommandCallInput } from "./command-call-input.js";

/** A planned line: the plan and the line as shown to the model and the approver (paths as the command sees them). */
export type PlannedLine = { ok: true; plan: CommandPlan; display: string } | Refusal;

/** A line to plan: the call's input and skills, its workspace, and the skill's environment when it has one. */
export interface LineToPlan extends CallSkills {
  input: CommandCallInput;
  workspaceDir: string;
  environmentDir?: string | undefined;
}

/** The line with host paths replaced by the paths the command sees (the executor's view). */
function displayLine(
  runtime: RuntimeView<never, "executor">,
  plan: CommandPlan,
  context: CallSkills,
  workspaceDir: string,
): string {
  const view = runtime.services.executor.view({ workspaceDir, skillDir: context.skill?.dir });
  let display = plan.display;
  if (context.skill?.dir && view.skillDir) display = display.replaceAll(context.skill.dir, view.skillDir);
  return display.replaceAll(workspaceDir, view.workspaceDir);
}

/** The refusal naming the programs the skill declares it needs and the fixed PATH lacks, if any. */
function missingRequirementsOf(
  runtime: RuntimeView<"checkRequirements", "catalog" | "policy">,
  context: CallSkills,
): Refusal | undefined {
  if (!context.skill || !runtime.config.checkRequirements) return undefined;
  const metadata = runtime.services.catalog.get(context.skill.name);
  const requirements = metadata ? missingRequirements(metadata, runtime.services.policy.fixedPath) : { missing: [] };
  if (requirements.missing.length === 0) return undefined;
  return refusal(
    "missing-requirements",
    `skill '${context.skill.name}' needs ${requirements.missing.join(", ")}, not found on ${runtime.services.policy.fixedPath}`,
  );
}

/**
 * Plans a line: one parse, every command checked against the policy (with the skill's environment first on PATH when
 * it has one), and the skill's required programs present.
 */
export function planLine(
  runtime: RuntimeView<"checkRequirements", "catalog" | "executor" | "policy">,
  line: LineToPlan,
): PlannedLine {
  const { input, workspaceDir, environmentDir } = line;
  const context: CallSkills = line;
  const policy = environmentDir
    ? { ...runtime.services.policy, fixedPath: `${environmentDir}/bin:${runtime.services.policy.fixedPath}` }
    : runtime.services.policy;
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
export async function planCall(
  runtime: RuntimeView<
    "checkRequirements" | "killAfterOutputBytes" | "killGraceMs" | "maxOutputBytes" | "skillEnvironments",
    "catalog" | "executor" | "policy" | "workspaces"
  >,
  call: ValidatedCall,
): Promise<PlannedCall | Refusal> {
  const workspaceDir = await runtime.services.workspaces.ensure(call.threadId);
  const environment = call.skill
    ? await prepareSkillEnvironment(runtime, call.skill, workspaceDir, call.config)
    : { ok: true as const };
  if (!environment.ok) return environment;
  const line = { ...call, workspaceDir, environmentDir: environment.hostDir };
  let planned = planLine(runtime, line);
  if (!planned.ok && isTimeBoxRefusal(planned)) {
    // the time box counts this thread's CPU, which a garbage collection also spends: once more, after a turn of the loop
    await new Promise<void>((resolve) => setImmediate(resolve));
    planned = planLine(runtime, line);
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
