import { resolveArtifacts } from "../artifacts/artifact-options.js";
import { chooseExecutor } from "../executor/choose-executor.js";
import { resolveLimits } from "../executor/command-limits.js";
import {
  SHELL_TOOL_NAMES,
  shellHookOptionsSchema,
  type ParsedShellOptions,
  type ShellHookOptions,
} from "../options/shell-hook-options.js";
import { parseOptions } from "../internal/core.js";
import { compileApprovalRules } from "../policy/approval-rules.js";
import { commandPolicy } from "../policy/policy-options.js";
import { SessionStore } from "../sessions/session-store.js";
import { ThreadWorkspaces } from "../workspace/thread-workspaces.js";
import type { ShellConfig, ShellRuntime } from "./shell-runtime.js";

/** The per-call limits of parsed options (timeouts, output caps, sessions). */
function callLimits(options: ParsedShellOptions) {
  return {
    sessionsEnabled: options.sessions !== false,
    maxSessionsPerThread: options.sessions === false ? 4 : options.sessions.maxPerThread,
    maxUnreadBytes: options.sessions === false ? 65_536 : options.sessions.maxUnreadBytes,
    timeoutMs: options.timeoutMs,
    maxTimeoutMs: options.maxTimeoutMs,
    killGraceMs: options.killGraceMs,
    maxOutputBytes: options.maxOutputBytes,
    killAfterOutputBytes: options.killAfterOutputBytes,
    outputFiles: options.outputFiles,
  };
}

/** Checks the options once (one zod schema) and fills in defaults (throws InvalidOptionsError naming the option). */
export function createShellRuntime(input: ShellHookOptions): ShellRuntime {
  const options = parseOptions(shellHookOptionsSchema, input);
  const approvalRules = compileApprovalRules(options.requireApproval);
  const limits = resolveLimits(options.limits);
  const executor = chooseExecutor(options.executor, options.bubblewrap, limits);
  // fail closed: any executor but bubblewrap (local, or an application's own) is treated as no sandbox
  const policy = commandPolicy(options, approvalRules.length > 0, executor.name !== "bubblewrap");
  const always = options.alwaysVisible === true ? SHELL_TOOL_NAMES : options.alwaysVisible || [];
  const services = {
    catalog: options.skills,
    executor,
    policy,
    workspaces: new ThreadWorkspaces(
      options.workspaceRoot,
      options.workspaceMaxAgeMs === undefined ? {} : { maxAgeMs: options.workspaceMaxAgeMs },
    ),
    sessions: new SessionStore(),
  };
  const config: ShellConfig = {
    ...callLimits(options),
    approvalRules,
    requireSkillRead: options.requireSkillRead,
    checkRequirements: options.checkRequirements,
    alwaysVisible: new Set(always),
    removeWorkspacesOnDispose: options.removeWorkspacesOnDispose,
    loadedSkills: options.loadedSkills,
    agentId: options.agentId,
    fixedEnv: { ...options.environment.set },
    limits,
    artifacts: resolveArtifacts(options.artifacts),
    stageAttachments: options.stageAttachments,
    skillEnvironments: options.skillEnvironments === false ? undefined : options.skillEnvironments,
    hostInputs: new Map(Object.entries(options.hostInputs)),
  };
  return {
    config,
    services,
    threads: { pinnedArtifacts: new Map(), stagedAttachments: new Map(), seenLoaded: new Map() },
  };
}
