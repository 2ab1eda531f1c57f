import type { StructuredToolInterface } from "@langchain/core/tools";
import type { SkillCatalog } from "@skillgraph/core";
import { resolveOptions } from "../options/resolve-options.js";
import type { SkillsRuntimeOptions } from "../options/skills-runtime-options.js";
import { emptyAgentSkillsState, type AgentSkillsState } from "../state/skills-state.js";
import type { SkillsToolContext } from "../tools/skills-tool-context.js";

/** A SkillsToolContext over a catalog, for calling a skills tool's run function directly. */
export function toolContext(catalog: SkillCatalog, options: Partial<SkillsRuntimeOptions> = {}, state: AgentSkillsState = emptyAgentSkillsState(), owned: Record<string, StructuredToolInterface[]> = {}): SkillsToolContext {
  return { catalog, agentId: "test", state, options: resolveOptions({ skills: catalog, ...options }), ownedTools: (skill) => owned[skill] ?? [] };
}
