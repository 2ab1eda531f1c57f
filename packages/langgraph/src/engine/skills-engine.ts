import type { SkillCatalog } from "../internal/core.js";
import type { ResolvedSkillsRuntimeOptions } from "../options/skills-runtime-options.js";
import type { AgentSkillsState, AgentSkillsUpdate } from "../state/skills-state.js";
import { BodyCache, CatalogViews, collectServedTools, VersionCaches, type EngineContext } from "./catalog-cache.js";
import type { EngineToolCall } from "./tool-gate.js";
import { fileReadLoad, skillReadByFileTool } from "./file-read-activation.js";
import { HistoryIndex } from "../repair/history-index.js";
import type { SkillsEvent } from "../events/skills-event.js";

/**
 * The one engine behind `createSkillsInterceptor` and `createSkillsMiddleware`: the resolved options, the catalog
 * views, the caches (by catalog version, so a request costs a few map lookups plus one body read per newly loaded
 * skill hash) and the tools it serves. Its steps take it as their context: `prepareModelCall` / `afterModelCall` /
 * `endTurn` (state-events.ts), `buildModelRequest` (model-request.ts), `gateToolCall` (tool-gate.ts), `runSkillsTool`
 * (tool-running.ts) and {@link fileRead}.
 */
export interface SkillsEngine extends EngineContext {
  /** This agent's catalog per invocation: options' only/exclude, the invocation's narrowing, the thread's disabled skills. */
  readonly views: CatalogViews;
}

/** Builds the engine for one agent's resolved options. */
export function createSkillsEngine(options: ResolvedSkillsRuntimeOptions): SkillsEngine {
  const { servedTools, hookTools } = collectServedTools(options);
  return {
    options,
    agentId: options.agentId,
    versions: new VersionCaches(options),
    bodies: new BodyCache(),
    hookTools,
    servedTools,
    requestHistory: new HistoryIndex(),
    threadHistory: new HistoryIndex(),
    views: new CatalogViews(options),
  };
}

/**
 * After a forwarded call of a generic file tool succeeded: the load of the skill whose SKILL.md it read (see
 * `fileReadTools`), or undefined when the call read no listed skill.
 */
export function fileRead(
  engine: EngineContext,
  call: EngineToolCall,
  state: AgentSkillsState,
  catalog: SkillCatalog,
): { update: AgentSkillsUpdate; events: SkillsEvent[] } | undefined {
  const name = skillReadByFileTool(engine, call, catalog);
  return name === undefined ? undefined : fileReadLoad(engine, name, state, catalog);
}
