import { randomUUID } from "node:crypto";
import path from "node:path";
import { interpreterPrefixes } from "../environments/interpreter-prefix.js";
import { SANDBOX_ENVIRONMENT, SANDBOX_SKILL_DIR, SANDBOX_WORKSPACE } from "../executor/bubblewrap-executor.js";
import { deniedProgramNames } from "../executor/denied-programs.js";
import { isInsideFolder } from "../internal/core.js";
import type { ExecutionRequest } from "../executor/executor-types.js";
import { execAllowList } from "../policy/exec-time-allow.js";
import { execTimeRules } from "../policy/exec-time-rules.js";
import { resolveExecutable } from "../policy/program-resolution.js";
import { refusal, type Refusal } from "../policy/refusal.js";
import type { RuntimeView } from "../runtime/shell-runtime.js";
import type { ApprovedCall } from "./approve-call.js";
import type { StagedCall } from "./call-types.js";

/** The call's timeout: its own `timeout_seconds` or the default, never above the largest allowed. */
function timeoutMsOf(runtime: RuntimeView<"maxTimeoutMs" | "timeoutMs">, timeoutSeconds: number | undefined): number {
  const asked = timeoutSeconds !== undefined ? timeoutSeconds * 1000 : runtime.config.timeoutMs;
  return Math.round(Math.min(asked, runtime.config.maxTimeoutMs));
}

/** Folders a sandbox makes itself: a skill folder there is not shown again at its host path. */
const SANDBOX_OWN_FOLDERS = ["/proc", "/dev", "/tmp/home", SANDBOX_WORKSPACE, SANDBOX_SKILL_DIR, SANDBOX_ENVIRONMENT];

/**
 * Host folders a sandbox shows read-only at the same path: the skill folder (so the host path the prompt and
 * read_skill give works in the sandbox as it does locally) and the prefix of the interpreter its environment was made
 * with (a pyenv or conda Python). The local executor sees them anyway.
 */
function readOnlyPathsOf(call: StagedCall): string[] {
  const paths: string[] = [];
  const skillDir = call.skill?.dir;
  if (
    skillDir &&
    path.isAbsolute(skillDir) &&
    skillDir !== "/" &&
    !SANDBOX_OWN_FOLDERS.some((own) => isInsideFolder(skillDir, own))
  )
    paths.push(skillDir);
  if (call.environmentDir) paths.push(...interpreterPrefixes(call.environmentDir));
  return paths;
}

/**
 * What the executor is asked to run for a staged call: the planned line, its cwd, the skill and its environment, the
 * allow-listed environment, stdin, pty, timeout and output caps, and the rules decided where programs start (with the
 * commands the user approved for this call). Refuses `pty` where no pseudo-terminal can be given.
 */
export function executionRequest(
  runtime: RuntimeView<
    | "approvalRules"
    | "fixedEnv"
    | "killAfterOutputBytes"
    | "killGraceMs"
    | "maxOutputBytes"
    | "maxTimeoutMs"
    | "timeoutMs",
    "policy"
  >,
  call: StagedCall,
  approval: ApprovedCall,
): ExecutionRequest | Refusal {
  const { input, skill } = call;
  if (input.pty && !resolveExecutable("script"))
    return refusal("not-found", "pty: util-linux 'script' is not installed, so no pseudo-terminal can be given");
  return {
    argv: [],
    shellCommand: call.plan.command,
    searchPath: runtime.services.policy.fixedPath,
    cwd: call.plan.cwd,
    workspaceDir: call.workspaceDir,
    ...(skill ? { skillDir: skill.dir, skillName: skill.name } : {}),
    ...(call.environmentDir ? { skillEnvironment: { hostDir: call.environmentDir, writable: false } } : {}),
    readOnlyPaths: readOnlyPathsOf(call),
    deniedPrograms: deniedProgramNames(runtime.services.policy),
    execRules: execTimeRules({
      policy: runtime.services.policy,
      approvalRules: runtime.config.approvalRules,
      approved: approval.approved,
      sandboxed: approval.sandboxed,
      tool: input.tool,
      ...(skill ? { skill: skill.name } : {}),
      allow: execAllowList(runtime.services.policy, skill ? [skill, ...call.loaded] : call.loaded),
    }),
    env: { ...runtime.config.fixedEnv, ...input.env, ...call.editorEnv, RUN_DIR: call.runDir },
    ...(input.stdin !== undefined ? { stdin: input.stdin } : {}),
    ...(input.pty ? { pty: true } : {}),
    timeoutMs: timeoutMsOf(runtime, input.timeout_seconds),
    killGraceMs: runtime.config.killGraceMs,
    maxOutputBytes: runtime.config.maxOutputBytes,
    killAfterOutputBytes: runtime.config.killAfterOutputBytes,
    runId: randomUUID(),
  };
}
