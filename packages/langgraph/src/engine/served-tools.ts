import type { StructuredToolInterface } from "@langchain/core/tools";
import type { ResolvedSkillsRuntimeOptions } from "../options/skills-runtime-options.js";

/** A hook-provided tool and the index of the hook that provides it. */
export interface HookTool {
  hook: number;
  tool: StructuredToolInterface;
}

/** Every tool the interceptor may have to run itself (pool, skillTools, hook tools), plus the hook tools by name. */
export function collectServedTools(options: ResolvedSkillsRuntimeOptions): { servedTools: StructuredToolInterface[]; hookTools: Map<string, HookTool> } {
  const hookTools = new Map<string, HookTool>();
  const served = new Map<string, StructuredToolInterface>();
  for (const tool of options.tools) served.set(tool.name, tool);
  for (const tools of Object.values(options.skillTools)) for (const tool of tools) served.set(tool.name, tool);
  options.hooks.forEach((hook, hookIndex) => {
    for (const tool of hook.tools) {
      hookTools.set(tool.name, { hook: hookIndex, tool });
      served.set(tool.name, tool);
    }
  });
  return { servedTools: [...served.values()], hookTools };
}
