// The approve step of a tool call: interrupt for approval rules and for pieces that cannot be judged before running.
import path from "node:path";
import { interrupt } from "@langchain/langgraph";
import type { ShellApprovalRequest } from "../policy/approval-types.js";
import type { ShellRuntime } from "../runtime/shell-runtime.js";
import { needsApproval } from "../policy/approval-rules.js";
import type { ApprovalCandidate } from "../policy/approval-types.js";
import { invisibleField } from "../policy/invisible-characters.js";
import { approvalFiles } from "./approval-files.js";
import type { PlannedCall } from "./call-types.js";
import { type Refusal, refusal } from "../policy/refusal.js";

/** What approval rules see; `key` is what an "always" answer remembers (tool, skill, files run and their content, line, cwd). */
export async function approvalCandidate(
  call: Pick<PlannedCall, "input" | "skill" | "plan" | "display" | "workspaceDir">,
): Promise<ApprovalCandidate> {
  const { plan, display } = call;
  const skill = call.skill?.name;
  const cwd = path.relative(call.workspaceDir, plan.cwd) || ".";
  const commands = plan.commands.map((command) => ({
    argv: command.argv,
    typedLayers: command.typedLayers,
    program: command.program,
    kind: command.kind,
  }));
  const files = await approvalFiles(plan, {
    skillDir: call.skill?.dir,
    cwd: plan.cwd,
    workspaceDir: call.workspaceDir,
  });
  const key = JSON.stringify([
    call.input.tool,
    skill ?? "",
    cwd,
    display,
    commands.map((command) => command.program),
    files,
  ]);
  return {
    tool: call.input.tool,
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
 * The approve step: interrupts for approval when a rule matches or the line has a piece that cannot be judged before
 * running (such a piece was refused at planning when no approval rules are set). Returns the refusal when the answer
 * is not `{ approved: true }`, undefined when the call may go on.
 */
export async function approvePlannedCall(runtime: ShellRuntime, call: PlannedCall): Promise<Refusal | undefined> {
  const { plan, display } = call;
  const candidate = await approvalCandidate(call);
  if (plan.opaque.length === 0 && !needsApproval(runtime.approvalRules, candidate)) return undefined;
  const request: ShellApprovalRequest = {
    type: "skillgraph/shell-approval",
    tool: call.input.tool,
    ...(candidate.skill !== undefined ? { skill: candidate.skill } : {}),
    command: display,
    argv: [...plan.programArgv],
    cwd: candidate.cwd,
    executor: runtime.executor.name,
    key: candidate.key,
    ...(candidate.opaque.length > 0 ? { opaque: [...candidate.opaque] } : {}),
    ...invisibleField(display, ...candidate.opaque.flatMap(({ piece, message }) => [piece, message])),
  };
  const answer = interrupt<ShellApprovalRequest, unknown>(request);
  if (answer && typeof answer === "object" && (answer as { approved?: unknown }).approved === true) return undefined;
  const reason =
    answer && typeof answer === "object" && typeof (answer as { reason?: unknown }).reason === "string"
      ? `: ${(answer as { reason: string }).reason}`
      : "";
  return refusal("approval-denied", `running '${display}' was not approved${reason}`);
}
