import type { BaseMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { SkillCatalog } from "../internal/core.js";
import type { ResolvedSkillsRuntimeOptions, SkillsInvocationOptions } from "../options/skills-runtime-options.js";
import type { AgentSkillsState, AgentSkillsUpdate } from "../state/skills-state.js";
import type { SkillsToolOutcome } from "../tools/skills-tool-context.js";
import {
  BodyCache,
  CatalogViews,
  collectServedTools,
  isSkillsToolName,
  VersionCaches,
  type EngineContext,
} from "./catalog-cache.js";
import { buildModelRequest, type BuiltModelRequest, type ModelRequestInput } from "./model-request.js";
import { afterModelCall, applyAgentUpdate, endTurn, prepareModelCall, type PreparedState } from "./state-events.js";
import { gateToolCall, type EngineToolCall, type GateDecision } from "./tool-gate.js";
import { runSkillsTool, touchOwner } from "./tool-running.js";
import { fileReadLoad, skillReadByFileTool } from "./file-read-activation.js";
import type { SkillsEvent } from "../events/skills-event.js";

/**
 * The one engine behind `createSkillsInterceptor` and `createSkillsMiddleware`: catalog views, the request rewrite,
 * the tool gate and the skills tools. Per-request work is cached by catalog version, so a request costs a few map lookups
 * plus one body read per newly loaded skill hash.
 */
export class SkillsEngine {
  readonly agentId: string;
  /** Every tool the interceptor may have to run itself (pool, skillTools, hook tools). */
  readonly servedTools: StructuredToolInterface[];
  private readonly context: EngineContext;
  private readonly views: CatalogViews;

  constructor(readonly options: ResolvedSkillsRuntimeOptions) {
    this.agentId = options.agentId;
    const versions = new VersionCaches(options);
    const { servedTools, hookTools } = collectServedTools(options);
    this.servedTools = servedTools;
    this.views = new CatalogViews(options);
    this.context = { options, agentId: this.agentId, versions, bodies: new BodyCache(), hookTools, servedTools };
  }

  /** Whether `name` is one of the model-facing skills tools. */
  isSkillsToolName(name: string): boolean {
    return isSkillsToolName(name);
  }

  /** This agent's catalog for one invocation: options' only/exclude, the invocation's narrowing, and the thread's disabled skills. */
  catalogFor(state: AgentSkillsState, invocation: SkillsInvocationOptions | undefined): SkillCatalog {
    return this.views.catalogFor(state, invocation);
  }

  /** The model-facing skills tools for this catalog (read_skill, read_skill_file, search_skills, list_skill_files, ...). */
  skillsTools(catalog: SkillCatalog): StructuredToolInterface[] {
    return this.context.versions.cacheFor(catalog).skillsTools;
  }

  /** Before a model call: end the turn when a new user message arrived, then settle drift of loaded skills. */
  prepare(state: AgentSkillsState, messages: readonly BaseMessage[], catalog: SkillCatalog): PreparedState {
    return prepareModelCall(state, messages, catalog, this.options, this.agentId);
  }

  /** After a model call: count it when a `once` skill is loaded (consumes it); otherwise nothing to record, no channel write. */
  afterModel(state: AgentSkillsState): PreparedState {
    return afterModelCall(state, this.agentId);
  }

  /** The turn is over (the agent answered): drop `turn` and `once` skills. */
  endTurn(state: AgentSkillsState): PreparedState {
    return endTurn(state, this.agentId);
  }

  /** Applies an update locally (what the channel reducer will do). */
  apply(state: AgentSkillsState, update: AgentSkillsUpdate): AgentSkillsState {
    return applyAgentUpdate(state, update);
  }

  /** Rewrites a model request: skills prompt appended to the system text, tools of loaded skills added, loaded bodies materialised. */
  buildModelRequest(input: ModelRequestInput): Promise<BuiltModelRequest> {
    return buildModelRequest(this.context, input);
  }

  /** Decides whether a tool call may run, is a skills tool, or is answered with an explanation instead. */
  gateToolCall(call: EngineToolCall, state: AgentSkillsState, catalog: SkillCatalog, threadId?: string): GateDecision {
    return gateToolCall(this.context, call, state, catalog, threadId);
  }

  /** Runs a skills tool call against this agent's state. */
  runSkillsTool(call: EngineToolCall, state: AgentSkillsState, catalog: SkillCatalog): Promise<SkillsToolOutcome> {
    return runSkillsTool(this.context, call, state, catalog);
  }

  /**
   * After a forwarded call of a generic file tool succeeded: the load of the skill whose SKILL.md it read (see
   * `fileReadTools`), or undefined when the call read no listed skill.
   */
  fileRead(
    call: EngineToolCall,
    state: AgentSkillsState,
    catalog: SkillCatalog,
  ): { update: AgentSkillsUpdate; events: SkillsEvent[] } | undefined {
    const name = skillReadByFileTool(this.context, call, catalog);
    return name === undefined ? undefined : fileReadLoad(this.context, name, state, catalog);
  }

  /** Load events recording that a loaded skill's tool was used (keeps it recent for the LRU cap). */
  touch(owner: string | undefined, state: AgentSkillsState): AgentSkillsUpdate | undefined {
    return touchOwner(owner, state);
  }
}
