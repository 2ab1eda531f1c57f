// The approve step of a tool call: interrupt for approval rules and for pieces that cannot be judged before running.
import path from "node:path";
import { interrupt } from "@langchain/langgraph";
import type { ShellApprovalRequest } from "../policy/approval-types.js";
import type { RuntimeView } from "../runtime/shell-runtime.js";
import type { CommandExecutor } from "../executor/executor-types.js";
import { needsApproval } from "../policy/approval-rules.js";
import type { ApprovalCandidate } from "../policy/approval-types.js";
import { invisibleField } from "../policy/invisible-characters.js";
import { approvalFiles } from "./approval-files.js";
import type { PlannedCall } from "./call-types.js";
import { type Refusal, refusal } from "../policy/refusal.js";

/** Inputs that come from inside the run (the skill, the workspace, the thread's artifacts, the user's attachments). */
const INSIDE_INPUTS = /^(skill|workspace|artifact|attachment):\/\//;

/** True when the call's line stays in a sandbox without network: nothing opaque, no host file copied in. */
function staysInSandbox(executor: CommandExecutor, call: Pick<PlannedCall, "input" | "plan">): boolean {
  if (executor.sandbox === undefined || executor.sandbox.network) return false;
  if (call.plan.opaque.length > 0) return false;
  return (call.input.inputs ?? []).every((input) => INSIDE_INPUTS.test(input.from));
}

/** What approval rules see; `key` is what an "always" answer remembers (tool, skill, files run and their content, line, cwd). */
export async function approvalCandidate(
  call: Pick<PlannedCall, "input" | "skill" | "plan" | "display" | "workspaceDir">,
  executor: CommandExecutor,
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
    sandboxed: staysInSandbox(executor, call),
    key,
  };
}

/** A call that may go on, and the commands the user approved for it (none when nothing was asked). */
export interface ApprovedCall {
  /** Each layer and command of the approved line: a program started at run time with one of these argvs was approved. */
  approved: string[][];
  /** Whether the line stays in a sandbox without network (what approval rules saw as `sandboxed`). */
  sandboxed: boolean;
}

/**
 * The approve step: interrupts for approval when a rule matches or the line has a piece that cannot be judged before
 * running (such a piece was refused at planning when no approval rules are set). Returns the refusal when the answer
 * is not `{ approved: true }`.
 */
export async function approvePlannedCall(
  runtime: RuntimeView<"approvalRules", "executor">,
  call: PlannedCall,
): Promise<Refusal | ApprovedCall> {
  const { plan, display } = call;
  const candidate = await approvalCandidate(call, runtime.services.executor);
  if (plan.opaque.length === 0 && !needsApproval(runtime.config.approvalRules, candidate))
    return { approved: [], sandboxed: candidate.sandboxed };
  const request: ShellApprovalRequest = {
    type: "skillgraph/shell-approval",
    tool: call.input.tool,
    ...(candidate.skill !== undefined ? { skill: candidate.skill } : {}),
    command: display,
    argv: [...plan.programArgv],
    cwd: candidate.cwd,
    executor: runtime.services.executor.name,
    key: candidate.key,
    ...(candidate.opaque.length > 0 ? { opaque: [...candidate.opaque] } : {}),
    ...invisibleField(display, ...candidate.opaque.flatMap(({ piece, message }) => [piece, message])),
  };
  const answer = interrupt<ShellApprovalRequest, unknown>(request);
  if (answer && typeof answer === "object" && (answer as { approved?: unknown }).approved === true)
    return {
      approved: [
        ...candidate.layers,
        ...candidate.commands.flatMap((command) => [command.argv, ...command.typedLayers]),
      ].map((argv) => [...argv]),
      sandboxed: candidate.sandboxed,
    };
  const reason =
    answer && typeof answer === "object" && typeof (answer as { reason?: unknown }).reason === "string"
      ? `: ${(answer as { reason: string }).reason}`
      : "";
  return refusal("approval-denied", `running '${display}' was not approved${reason}`);
}
