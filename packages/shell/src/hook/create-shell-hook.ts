import { createShellToolkit, type ShellHandles } from "./shell-toolkit.js";
import type { ShellHookOptions } from "../options/shell-hook-options.js";
import type { SkillsToolHook } from "../options/skills-tool-hook.js";

/** The hook plus what an application needs around it: the executor in use, workspaces, staging. */
export interface ShellHook extends SkillsToolHook, Omit<ShellHandles, "dispose"> {
  name: "shell";
  /**
   * Kills the thread's interactive sessions (every thread's when no id). Without an id it also removes the default
   * temporary workspace root; an app's `workspaceRoot` is kept unless `removeWorkspacesOnDispose`.
   */
  dispose(threadId?: string): Promise<void>;
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
  const { runtime: _runtime, ...toolkit } = createShellToolkit(options);
  return { name: "shell", ...toolkit };
}
