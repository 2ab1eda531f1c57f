import { ToolMessage } from "@langchain/core/messages";
import { getCurrentTaskInput } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import type { ShellHookOptions } from "../options/shell-hook-options.js";
import { SHELL_TOOL_NAMES } from "../options/shell-hook-options.js";
import type { SkillsToolHookContext } from "../options/skills-tool-hook.js";
import type { SkillMetadata } from "../internal/core.js";
import { loadedNamesInState, threadIdOf } from "../runtime/loaded-skill-names.js";
import { createShellToolkit, type ShellHandles, type ShellToolkit } from "../hook/shell-toolkit.js";

/** The shell as a `createAgent` middleware, with the workspace handles of the shell hook. */
export type ShellMiddleware = ReturnType<typeof createMiddleware> & ShellHandles;

const shellToolNames: ReadonlySet<string> = new Set(SHELL_TOOL_NAMES);

/**
 * The whole graph state of the running node: createAgent hands a middleware only the channels of its own state schema,
 * and the skills channel belongs to the skills middleware (declaring it again here would make a second definition of
 * that channel), so it is read from the node's input, falling back to the request's state.
 */
function graphState(requestState: unknown): unknown {
  try {
    return getCurrentTaskInput() ?? requestState;
  } catch {
    return requestState;
  }
}

/** The gate's view of a request: the loaded skills the skills state records (known to the catalog) and the thread. */
function gateContext(toolkit: ShellToolkit, state: unknown, configurable: unknown): SkillsToolHookContext {
  const names = loadedNamesInState(graphState(state), toolkit.runtime.config.agentId) ?? [];
  const loadedSkills = names
    .map((name) => toolkit.runtime.services.catalog.get(name))
    .filter((skill): skill is SkillMetadata => skill !== undefined);
  const threadId = threadIdOf({ configurable: configurable as Record<string, unknown> | undefined });
  return { loadedSkills, ...(threadId !== undefined ? { threadId } : {}) };
}

function refusedMessage(reason: string, call: { id?: string; name: string }): ToolMessage {
  return new ToolMessage({ content: reason, tool_call_id: call.id ?? "", name: call.name, status: "error" });
}

/**
 * The shell as a `createAgent` middleware, composed beside `createSkillsMiddleware`: it reads the loaded skills from
 * the skills state, shows the model the shell tools those skills ask for, checks each call (skill read, every command
 * allowed) before it runs, and runs it with the same runtime as `createShellHook` (approval through `interrupt()`,
 * resumed with `new Command({ resume: { approved: true } })`).
 * @param options the shell options (the same as createShellHook's; checked once here)
 * @example
 * const agent = createAgent({ model, tools: [], checkpointer,
 *   middleware: [createSkillsMiddleware({ skills: registry }), createShellMiddleware({ skills: registry })] });
 */
export function createShellMiddleware(options: ShellHookOptions): ShellMiddleware {
  const toolkit = createShellToolkit(options);
  const agentId = toolkit.runtime.config.agentId;
  const middleware = createMiddleware({
    name: agentId === "default" ? "ShellMiddleware" : `ShellMiddleware_${agentId.replace(/[^A-Za-z0-9_-]/g, "_")}`,
    tools: toolkit.tools,
    wrapModelCall: (request, handler) => {
      const context = gateContext(toolkit, request.state, request.runtime.configurable);
      const visible = new Set(toolkit.visibleTools(context));
      const tools = request.tools.filter(
        (tool) => !shellToolNames.has(String((tool as { name?: unknown }).name)) || visible.has(String(tool.name)),
      );
      return handler({ ...request, tools });
    },
    wrapToolCall: (request, handler) => {
      const call = request.toolCall;
      if (!shellToolNames.has(call.name)) return handler(request);
      const context = gateContext(toolkit, request.state, request.runtime.configurable);
      if (!toolkit.visibleTools(context).includes(call.name))
        return refusedMessage(
          `Tool '${call.name}' is not available now: load a skill that uses it first (read_skill).`,
          call,
        );
      const verdict = toolkit.authorize({ toolName: call.name, args: call.args }, context);
      if (!verdict.allowed) return refusedMessage(`Tool '${call.name}' refused: ${verdict.reason}`, call);
      return handler(request);
    },
  });
  const { runtime: _runtime, tools: _tools, visibleTools: _visible, authorize: _authorize, ...handles } = toolkit;
  return Object.assign(middleware, handles);
}
