import { randomUUID } from "node:crypto";
import { deniedProgramNames } from "../executor/denied-programs.js";
import type { ExecutionRequest } from "../executor/executor-types.js";
import { resolveExecutable } from "../policy/program-resolution.js";
import { refusal, type Refusal } from "../policy/refusal.js";
import type { ShellRuntime } from "../runtime/shell-runtime.js";
import type { StagedCall } from "./call-types.js";

/** The call's timeout: its own `timeout_seconds` or the default, never above the largest allowed. */
function timeoutMsOf(runtime: ShellRuntime, timeoutSeconds: number | undefined): number {
  const asked = timeoutSeconds !== undefined ? timeoutSeconds * 1000 : runtime.timeoutMs;
  return Math.round(Math.min(asked, runtime.maxTimeoutMs));
}

/**
 * What the executor is asked to run for a staged call: the planned line, its cwd, the skill and its environment, the
 * allow-listed environment, stdin, pty, timeout and output caps. Refuses `pty` where no pseudo-terminal can be given.
 */
export function executionRequest(runtime: ShellRuntime, call: StagedCall): ExecutionRequest | Refusal {
  const { input, skill } = call;
  if (input.pty && !resolveExecutable("script"))
    return refusal("not-found", "pty: util-linux 'script' is not installed, so no pseudo-terminal can be given");
  return {
    argv: [],
    shellCommand: call.plan.command,
    searchPath: runtime.policy.fixedPath,
    cwd: call.plan.cwd,
    workspaceDir: call.workspaceDir,
    ...(skill ? { skillDir: skill.dir, skillName: skill.name } : {}),
    ...(call.environmentDir ? { skillEnvironment: { hostDir: call.environmentDir, writable: false } } : {}),
    deniedPrograms: deniedProgramNames(runtime.policy),
    env: { ...runtime.fixedEnv, ...input.env, ...call.editorEnv, RUN_DIR: call.runDir },
    ...(input.stdin !== undefined ? { stdin: input.stdin } : {}),
    ...(input.pty ? { pty: true } : {}),
    timeoutMs: timeoutMsOf(runtime, input.timeout_seconds),
    killGraceMs: runtime.killGraceMs,
    maxOutputBytes: runtime.maxOutputBytes,
    killAfterOutputBytes: runtime.killAfterOutputBytes,
    runId: randomUUID(),
  };
}
