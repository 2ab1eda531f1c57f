import type { StructuredToolInterface } from "@langchain/core/tools";
import type { ResolvedSkillsRuntimeOptions } from "../options/skills-runtime-options.js";
import type { BodyCache } from "./body-cache.js";
import type { HookTool } from "./served-tools.js";
import type { VersionCaches } from "./version-cache.js";

/** The engine's shared parts that its request, gate and tool helpers read. */
export interface EngineContext {
  readonly options: ResolvedSkillsRuntimeOptions;
  readonly agentId: string;
  readonly versions: VersionCaches;
  readonly bodies: BodyCache;
  readonly hookTools: ReadonlyMap<string, HookTool>;
  readonly servedTools: readonly StructuredToolInterface[];
}
