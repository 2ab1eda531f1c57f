// Two stages of a tool call: plan (parse the line once, check every command it can run) and approve (interrupt
// for approval rules and for pieces that cannot be judged before running).
import path from "node:path";
import { interrupt } from "@langchain/langgraph";
import type { ShellApprovalRequest } from "../hook/shell-hook-options.js";
import type { CommandCallInput } from "../tools/command-call-input.js";
import type { ShellRuntime } from "../runtime/shell-runtime.js";
import { needsApproval } from "../policy/approval-rules.js";
import type { ApprovalCandidate } from "../policy/approval-types.js";
import type { CommandPlan, CommandSkill } from "../policy/command-check-types.js";
import { planCommand } from "../policy/plan-command.js";
import { type Refusal, refusal } from "../policy/refusal.js";
import { missingRequirements } from "../requirements/check-requirements.js";

/** A planned call: the plan and the line as shown to the model and the approver (paths as the command sees them). */
export type PlannedCall = { ok: true; plan: CommandPlan; display: string } | Refusal;

/**
 * Plans a call: one parse of the line, every command checked against the policy (with the skill's environment first
 * on PATH when it has one), and the skill's required programs present.
 */
export function planCall(
  runtime: ShellRuntime,
  input: CommandCallInput,
  context: { skill?: CommandSkill; loaded: CommandSkill[] },
  workspaceDir: string,
  environmentDir: string | undefined,
): PlannedCall {
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
  const { plan } = checked;
  const view = runtime.executor.view({ workspaceDir, skillDir: context.skill?.dir });
  let display = plan.display;
  if (context.skill?.dir && view.skillDir) display = display.replaceAll(context.skill.dir, view.skillDir);
  display = display.replaceAll(workspaceDir, view.workspaceDir);
  if (context.skill && runtime.checkRequirements) {
    const metadata = runtime.catalog.get(context.skill.name);
    const requirements = metadata
      ? missingRequirements(metadata, runtime.policy.fixedPath)
      : { required: [], missing: [] };
    if (requirements.missing.length > 0) {
      return refusal(
        "missing-requirements",
        `skill '${context.skill.name}' needs ${requirements.missing.join(", ")}, not found on ${runtime.policy.fixedPath}`,
      );
    }
  }
  return { ok: true, plan, display };
}

/** What approval rules see; `key` is what an "always" answer remembers (tool, skill, files run, line, cwd). */
export function approvalCandidate(
  input: Pick<CommandCallInput, "tool">,
  skill: string | undefined,
  plan: CommandPlan,
  display: string,
  cwd: string,
): ApprovalCandidate {
  const commands = plan.commands.map((command) => ({
    argv: command.argv,
    typedLayers: command.typedLayers,
    program: command.program,
    kind: command.kind,
  }));
  const key = JSON.stringify([input.tool, skill ?? "", cwd, display, commands.map((command) => command.program)]);
  return {
    tool: input.tool,
    ...(skill !== undefined ? { skill } : {}),
    argv: plan.programArgv,
    command: display,
    layers: plan.layers,
    commands,
    cwd,
    opaque: plan.opaque.map((problem) => ({ piece: problem.piece, message: problem.message })),
    key,
  };
}

/**
 * Interrupts for approval when a rule matches or the line has a piece that cannot be judged before running (such a
 * piece was refused at planning when no approval rules are set). Returns the refusal when the answer is not
 * `{ approved: true }`, undefined when the call may go on.
 */
export function approveCall(
  runtime: ShellRuntime,
  input: Pick<CommandCallInput, "tool">,
  skill: string | undefined,
  plan: CommandPlan,
  display: string,
  workspaceDir: string,
): Refusal | undefined {
  const candidate = approvalCandidate(input, skill, plan, display, path.relative(workspaceDir, plan.cwd) || ".");
  if (plan.opaque.length === 0 && !needsApproval(runtime.approvalRules, candidate)) return undefined;
  const request: ShellApprovalRequest = {
    type: "skillgraph/shell-approval",
    tool: input.tool,
    ...(skill !== undefined ? { skill } : {}),
    command: display,
    argv: [...plan.programArgv],
    cwd: candidate.cwd,
    executor: runtime.executor.name,
    key: candidate.key,
    ...(candidate.opaque.length > 0 ? { opaque: [...candidate.opaque] } : {}),
  };
  const answer = interrupt<ShellApprovalRequest, unknown>(request);
  if (answer && typeof answer === "object" && (answer as { approved?: unknown }).approved === true) return undefined;
  const reason =
    answer && typeof answer === "object" && typeof (answer as { reason?: unknown }).reason === "string"
      ? `: ${(answer as { reason: string }).reason}`
      : "";
  return refusal("approval-denied", `running '${display}' was not approved${reason}`);
}
