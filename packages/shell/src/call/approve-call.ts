// The approve step of a tool call: interrupt for approval rules and for pieces that cannot be judged before running.
import path from "node:path";
import { interrupt } from "@langchain/langgraph";
import type { ShellApprovalRequest } from "../policy/approval-types.js";
import type { CommandCallInput } from "../tools/command-call-input.js";
import type { ShellRuntime } from "../runtime/shell-runtime.js";
import { needsApproval } from "../policy/approval-rules.js";
import type { ApprovalCandidate } from "../policy/approval-types.js";
import type { CommandPlan } from "../policy/command-check-types.js";
import type { PlannedCall } from "./call-types.js";
import { type Refusal, refusal } from "../policy/refusal.js";

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

/** The approve step: {@link approveCall} for a planned call. */
export function approvePlannedCall(runtime: ShellRuntime, call: PlannedCall): Refusal | undefined {
  return approveCall(runtime, call.input, call.skill?.name, call.plan, call.display, call.workspaceDir);
}
