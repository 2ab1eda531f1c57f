import { existsSync } from "node:fs";
import path from "node:path";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { createShellRuntime } from "../runtime/create-shell-runtime.js";
import type { ShellRuntime } from "../runtime/shell-runtime.js";
import type { SkillMetadata } from "../internal/core.js";
import type { CommandSkill } from "../policy/plan-command.js";
import { preflightCommand } from "../policy/plan-command.js";
import { loadBashParser } from "../command/bash-parser.js";
import { grantOf } from "../policy/command-rules.js";
import { createRunSkillScriptTool } from "../tools/run-skill-script/index.js";
import { createShellSessionTools } from "../tools/shell-session/index.js";
import { createShellTool } from "../tools/shell/index.js";
import { NO_THREAD, type StagedFile } from "../workspace/thread-workspaces.js";
import type { ShellHookOptions, ShellToolName } from "./shell-hook-options.js";
import type { SkillsToolAuthorization, SkillsToolHook, SkillsToolHookContext } from "./skills-tool-hook.js";

/** The hook plus what an application needs around it: the executor in use, workspaces, staging. */
export interface ShellHook extends SkillsToolHook {
  name: "shell";
  /** Name of the executor in use (`local`, `bubblewrap`, or a custom one's). */
  readonly executorName: string;
  /** Host path of a thread's workspace. */
  workspacePath(threadId?: string): string;
  /** Writes input files into a thread's workspace (paths relative to it). */
  stageFiles(threadId: string | undefined, files: readonly StagedFile[]): Promise<string[]>;
  /** Deletes a thread's workspace (every workspace when no id). */
  removeWorkspace(threadId?: string): Promise<void>;
  /**
   * Kills the thread's interactive sessions (every thread's when no id). Without an id it also removes the default
   * temporary workspace root; an app's `workspaceRoot` is kept unless `removeWorkspacesOnDispose`.
   */
  dispose(threadId?: string): Promise<void>;
}

/**
 * Whether a loaded skill has a `scripts/` folder, checked on every request (one stat per loaded skill, a few
 * microseconds): a cache would keep `run_skill_script` hidden after a reload adds the folder.
 */
function hasScriptsFolder(dir: string): boolean {
  return dir !== "" && existsSync(path.join(dir, "scripts"));
}

function asCommandSkill(skill: SkillMetadata): CommandSkill {
  return { name: skill.name, dir: skill.dir, allowedTools: skill.allowedTools };
}

function visibleTools(runtime: ShellRuntime, context: SkillsToolHookContext): string[] {
  const visible = new Set<ShellToolName>(runtime.alwaysVisible);
  for (const skill of context.loadedSkills) {
    const grant = grantOf(asCommandSkill(skill));
    if (skill.dir !== "" && (grant.mentionsShell || hasScriptsFolder(skill.dir))) visible.add("run_skill_script");
    if (grant.anyCommand || grant.rules.length > 0 || skill.allowedTools.includes("shell")) visible.add("shell");
  }
  if (runtime.sessionsEnabled && (visible.has("run_skill_script") || visible.has("shell"))) {
    visible.add("shell_session_write");
    visible.add("shell_session_poll");
    visible.add("shell_session_kill");
  }
  return [...visible];
}

function authorize(
  runtime: ShellRuntime,
  call: { toolName: string; args: unknown },
  context: SkillsToolHookContext,
): SkillsToolAuthorization {
  const names = context.loadedSkills.map((skill) => skill.name);
  runtime.seenLoaded.set(context.threadId ?? NO_THREAD, names);
  if (call.toolName !== "run_skill_script" && call.toolName !== "shell") return { allowed: true };
  const args = (call.args ?? {}) as { skill?: unknown; command?: unknown; cwd?: unknown; env?: unknown };
  if (typeof args.command !== "string") return { allowed: false, reason: "invalid-input: 'command' must be a string" };
  let skill: CommandSkill | undefined;
  if (call.toolName === "run_skill_script") {
    const metadata = typeof args.skill === "string" ? runtime.catalog.get(args.skill) : undefined;
    if (!metadata)
      return { allowed: false, reason: `skill-not-found: skill '${String(args.skill)}' not found in the catalog` };
    if (runtime.requireSkillRead && !names.includes(metadata.name)) {
      return {
        allowed: false,
        reason: `skill-not-read: read skill '${metadata.name}' (read_skill) before running its scripts`,
      };
    }
    skill = asCommandSkill(metadata);
  }
  const checked = preflightCommand(
    {
      command: args.command,
      mode: call.toolName === "run_skill_script" ? "skill" : "shell",
      skill,
      loadedSkills: context.loadedSkills.map(asCommandSkill),
      workspaceDir: runtime.workspaces.pathFor(context.threadId),
      cwd: typeof args.cwd === "string" ? args.cwd : undefined,
      env: args.env && typeof args.env === "object" ? (args.env as Record<string, string>) : undefined,
    },
    runtime.policy,
  );
  return checked.ok ? { allowed: true } : { allowed: false, reason: `${checked.reason}: ${checked.message}` };
}

/**
 * Creates the shell hook: `run_skill_script`, `shell` and the interactive-session tools, with a per-thread workspace,
 * an executor (bubblewrap sandbox when available), allow/deny lists, skills' `allowed-tools` grants, requirement
 * checks and approval interrupts. Give it to the SkillsInterceptor (`hooks: [shellHook]`) or bind `hook.tools` to a
 * ToolNode directly.
 * @param options the catalog, executor, policy and limits (checked once here; InvalidOptionsError names a bad option)
 * @example
 * const shell = createShellHook({ skills: registry, executor: "bubblewrap", requireApproval: ["git push"] });
 * const tools = new ToolNode(shell.tools);
 */
export function createShellHook(options: ShellHookOptions): ShellHook {
  const runtime = createShellRuntime(options);
  // the grammar loads in the background (about 60 ms); every tool call awaits it before checking its line
  void loadBashParser().catch(() => undefined);
  const tools: StructuredToolInterface[] = [createRunSkillScriptTool(runtime), createShellTool(runtime)];
  if (runtime.sessionsEnabled) tools.push(...createShellSessionTools(runtime));
  return {
    name: "shell",
    tools,
    executorName: runtime.executor.name,
    visibleTools: (context) => visibleTools(runtime, context),
    authorize: (call, context) => authorize(runtime, call, context),
    workspacePath: (threadId) => runtime.workspaces.pathFor(threadId),
    stageFiles: (threadId, files) => runtime.workspaces.stage(threadId, files),
    removeWorkspace: (threadId) => runtime.workspaces.remove(threadId),
    async dispose(threadId) {
      await runtime.sessions.dispose(threadId);
      if (threadId === undefined) runtime.seenLoaded.clear();
      else runtime.seenLoaded.delete(threadId);
      // the runtime's own temporary root goes with it; an application's root is kept unless it asked otherwise
      if (threadId === undefined && runtime.workspaces.ownsRoot) await runtime.workspaces.removeAll();
      else if (runtime.removeWorkspacesOnDispose) await runtime.workspaces.remove(threadId);
    },
  };
}
