// The shell as one object the hook (SkillsInterceptor) and the middleware (createAgent) both adapt: the runtime built
// once from the options, the tools, the gate (visible tools, authorize) and the workspace handles.
import type { StructuredToolInterface } from "@langchain/core/tools";
import { loadBashParser } from "../command/bash-parser.js";
import type { ShellHookOptions } from "../options/shell-hook-options.js";
import type { SkillsToolAuthorization, SkillsToolHookContext } from "../options/skills-tool-hook.js";
import { createReadOutputTool } from "../tools/read-output/index.js";
import { createRunSkillScriptTool } from "../tools/run-skill-script/index.js";
import { createShellSessionTools } from "../tools/shell-session/index.js";
import { createShellTool } from "../tools/shell/index.js";
import type { StagedFile } from "../workspace/thread-workspaces.js";
import { createShellRuntime } from "../runtime/create-shell-runtime.js";
import type { ShellRuntime } from "../runtime/shell-runtime.js";
import { authorize, visibleTools } from "./shell-tool-gate.js";

/** What an application needs around the shell tools: the executor in use, workspaces, staging, clean-up. */
export interface ShellHandles {
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

/** The shell's runtime, tools, gate and handles, built once from the options. */
export interface ShellToolkit extends ShellHandles {
  runtime: ShellRuntime;
  tools: StructuredToolInterface[];
  visibleTools(context: SkillsToolHookContext): string[];
  authorize(call: { toolName: string; args: unknown }, context: SkillsToolHookContext): SkillsToolAuthorization;
}

/** Checks the options once and builds the shell's runtime, tools and gate (InvalidOptionsError names a bad option). */
export function createShellToolkit(options: ShellHookOptions): ShellToolkit {
  const runtime = createShellRuntime(options);
  // the grammar loads in the background (about 60 ms); every tool call awaits it before checking its line
  void loadBashParser().catch(() => undefined);
  const tools: StructuredToolInterface[] = [
    createRunSkillScriptTool(runtime),
    createShellTool(runtime),
    createReadOutputTool(runtime),
  ];
  if (runtime.config.sessionsEnabled) tools.push(...createShellSessionTools(runtime));
  return {
    runtime,
    tools,
    executorName: runtime.services.executor.name,
    visibleTools: (context) => visibleTools(runtime, context),
    authorize: (call, context) => authorize(runtime, call, context),
    workspacePath: (threadId) => runtime.services.workspaces.pathFor(threadId),
    stageFiles: (threadId, files) => runtime.services.workspaces.stage(threadId, files),
    removeWorkspace: (threadId) => runtime.services.workspaces.remove(threadId),
    async dispose(threadId) {
      await runtime.services.sessions.dispose(threadId);
      if (threadId === undefined) runtime.threads.seenLoaded.clear();
      else runtime.threads.seenLoaded.delete(threadId);
      // the runtime's own temporary root goes with it; an application's root is kept unless it asked otherwise
      if (threadId === undefined && runtime.services.workspaces.ownsRoot) await runtime.services.workspaces.removeAll();
      else if (runtime.config.removeWorkspacesOnDispose) await runtime.services.workspaces.remove(threadId);
    },
  };
}
