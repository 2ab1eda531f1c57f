import type { StructuredToolInterface } from "@langchain/core/tools";
import type { SkillMetadata } from "../internal/core.js";
import type { AgentSkillsState } from "../state/skills-state.js";
import type { EngineContext } from "./engine-context.js";
import { exposedTools } from "./exposed-tools.js";
import { SKILLS_TOOL_NAMES } from "./skills-tool-names.js";
import { toolRestriction } from "./tool-restriction.js";
import type { VersionCache } from "./version-cache.js";

/** The tools of a rewritten request: the caller's tools minus engine-owned (and, in dynamic mode, restricted) ones, then skills tools, then exposed skill and hook tools. */
export function requestTools(context: EngineContext, inputTools: readonly StructuredToolInterface[], state: AgentSkillsState, loaded: readonly SkillMetadata[], cache: VersionCache, threadId: string | undefined): StructuredToolInterface[] {
  const { options } = context;
  const restricted = toolRestriction(options.restrictTools, loaded, cache.index);
  const own = new Set([...SKILLS_TOOL_NAMES, ...cache.index.owners.keys(), ...context.hookTools.keys()]);
  const userTools = inputTools.filter((tool) => !own.has(tool.name) && (!restricted || restricted.has(tool.name.toLowerCase()) || options.toolExposure !== "dynamic"));
  return [...userTools, ...cache.requestSkillsTools, ...exposedTools(options, state, loaded, cache.index, threadId)];
}
