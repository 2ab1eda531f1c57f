import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { SkillDriftError, applyLoadEvents, createSkillsPromptRenderer, detectLoadedSkillDrift } from "../internal/core.js";
import type { SkillCatalog, SkillLoadEvent, SkillMetadata } from "../internal/core.js";
import type { ResolvedSkillsRuntimeOptions, SkillsInvocationOptions } from "../options/skills-runtime-options.js";
import type { AgentSkillsState, AgentSkillsUpdate } from "../state/skills-state.js";
import type { SkillsEvent } from "../events/skills-event.js";
import type { SkillsToolHookContext } from "../hooks/skills-tool-hook.js";
import { BodyCache } from "./body-cache.js";
import { bodyArtifact, skillBlock } from "./skill-content.js";
import { evictionEvents, unloadedEvents } from "./unload-events.js";
import { buildSkillToolIndex, type SkillToolIndex } from "./skill-tool-index.js";
import { buildReadSkillTool, READ_SKILL, runReadSkill } from "../tools/read-skill/index.js";
import { buildReadSkillFileTool, READ_SKILL_FILE, runReadSkillFile } from "../tools/read-skill-file/index.js";
import { buildSearchSkillsTool, runSearchSkills, SEARCH_SKILLS } from "../tools/search-skills/index.js";
import { buildListSkillFilesTool, LIST_SKILL_FILES, runListSkillFiles } from "../tools/list-skill-files/index.js";
import { buildDisableSkillTool, DISABLE_SKILL, runDisableSkill } from "../tools/disable-skill/index.js";
import { buildCallSkillTool, CALL_SKILL_TOOL, parseDispatch } from "../tools/call-skill-tool/index.js";
import type { SkillsToolContext, SkillsToolOutcome } from "../tools/skills-tool-context.js";

/** A tool call as both shapes see it. */
export interface EngineToolCall {
  name: string;
  args: unknown;
  id?: string;
}

/** What the gate decided for one tool call. */
export type GateDecision =
  | { action: "skills-tool" }
  /** Run `call` (the inner call for a dispatcher call); `tool` is set when the interceptor serves the tool itself. */
  | { action: "run"; call: EngineToolCall; tool?: StructuredToolInterface; owner?: string }
  | { action: "block"; reason: string };

/** The rewritten model request. */
export interface BuiltModelRequest {
  systemText: string;
  messages: BaseMessage[];
  tools: StructuredToolInterface[];
}

/** State changes and trace events computed before a model call (turn end, drift). */
export interface PreparedState {
  state: AgentSkillsState;
  update: AgentSkillsUpdate | undefined;
  events: SkillsEvent[];
}

interface VersionCache {
  version: number;
  section: string;
  index: SkillToolIndex;
  skillsTools: StructuredToolInterface[];
}

const SKILLS_TOOL_NAMES = [READ_SKILL, READ_SKILL_FILE, SEARCH_SKILLS, LIST_SKILL_FILES, DISABLE_SKILL, CALL_SKILL_TOOL] as const;

/**
 * The one engine behind `createSkillsInterceptor` and `createSkillsMiddleware`: catalog views, the request rewrite,
 * the tool gate and the skills tools. Per-request work is cached by catalog version, so a request costs a few map lookups
 * plus one body read per newly loaded skill hash.
 */
export class SkillsEngine {
  readonly agentId: string;
  private readonly views = new Map<string, SkillCatalog>();
  private readonly perView = new Map<string, VersionCache>();
  private readonly bodies = new BodyCache();
  private readonly hookTools = new Map<string, { hook: number; tool: StructuredToolInterface }>();
  private readonly render: ReturnType<typeof createSkillsPromptRenderer>;
  /** Every tool the interceptor may have to run itself (pool, skillTools, hook tools). */
  readonly servedTools: StructuredToolInterface[];

  constructor(readonly options: ResolvedSkillsRuntimeOptions) {
    this.agentId = options.agentId;
    this.render = createSkillsPromptRenderer(options.prompt);
    const served = new Map<string, StructuredToolInterface>();
    for (const tool of options.tools) served.set(tool.name, tool);
    for (const tools of Object.values(options.skillTools)) for (const tool of tools) served.set(tool.name, tool);
    options.hooks.forEach((hook, hookIndex) => {
      for (const tool of hook.tools) {
        this.hookTools.set(tool.name, { hook: hookIndex, tool });
        served.set(tool.name, tool);
      }
    });
    this.servedTools = [...served.values()];
  }

  /** Whether `name` is one of the model-facing skills tools. */
  isSkillsToolName(name: string): boolean {
    return (SKILLS_TOOL_NAMES as readonly string[]).includes(name);
  }

  /** This agent's catalog for one invocation: options' only/exclude, the invocation's narrowing, and the thread's disabled skills. */
  catalogFor(state: AgentSkillsState, invocation: SkillsInvocationOptions | undefined): SkillCatalog {
    const only = intersect(this.options.only, invocation?.only);
    const exclude = [...this.options.exclude, ...(invocation?.exclude ?? [])];
    const disabled = state.disabled;
    if (!only && exclude.length === 0 && disabled.length === 0) return this.options.skills;
    const key = JSON.stringify([only ?? null, [...exclude].sort(), disabled]);
    let view = this.views.get(key);
    if (!view) {
      if (this.views.size > 256) this.views.clear();
      view = this.options.skills.view({ only, exclude, disabled });
      this.views.set(key, view);
    }
    return view;
  }

  private cacheFor(catalog: SkillCatalog): VersionCache {
    let cached = this.perView.get(viewKey(catalog));
    if (cached && cached.version === catalog.version) return cached;
    const skills = catalog.list();
    const names = skills.map((skill) => skill.name);
    const threshold = this.options.enumThreshold;
    const rendered = this.render(skills);
    const skillsTools = [buildReadSkillTool(names, threshold), buildReadSkillFileTool(names, threshold), buildSearchSkillsTool(), buildListSkillFilesTool(names, threshold)];
    if (this.options.allowDisableSkill) skillsTools.push(buildDisableSkillTool(names, threshold));
    if (this.options.toolExposure === "dispatcher") skillsTools.push(buildCallSkillTool());
    cached = {
      version: catalog.version,
      section: skills.length === 0 ? "" : rendered.text,
      index: buildSkillToolIndex(skills, this.options),
      skillsTools,
    };
    this.perView.set(viewKey(catalog), cached);
    return cached;
  }

  /** The model-facing skills tools for this catalog (read_skill, read_skill_file, search_skills, list_skill_files, ...). */
  skillsTools(catalog: SkillCatalog): StructuredToolInterface[] {
    return this.cacheFor(catalog).skillsTools;
  }

  /** Before a model call: end the turn when a new user message arrived, then settle drift of loaded skills. */
  prepare(state: AgentSkillsState, messages: readonly BaseMessage[], catalog: SkillCatalog): PreparedState {
    const events: SkillLoadEvent[] = [];
    const trace: SkillsEvent[] = [];
    const seq = state.load.seq + 1;
    const last = messages[messages.length - 1];
    const loadedNames = Object.keys(state.load.loaded);
    if (last && last.getType() === "human" && loadedNames.some((name) => state.load.loaded[name]!.mode !== "session")) events.push({ type: "end-turn", seq });
    const drifts = detectLoadedSkillDrift(state.load, (name) => catalog.get(name));
    for (const drift of drifts) {
      if (this.options.onDrift === "fail") throw new SkillDriftError({ drift: [drift], agentId: this.agentId });
      if (drift.kind === "removed") {
        events.push({ type: "unload", name: drift.name, seq });
        trace.push({ type: "skill-drift", agentId: this.agentId, skill: drift.name, kind: "removed", action: "reload" });
      } else if (this.options.onDrift === "reload") {
        const entry = state.load.loaded[drift.name]!;
        events.push({ type: "load", name: drift.name, mode: entry.mode, hash: drift.currentHash!, seq });
        trace.push({ type: "skill-drift", agentId: this.agentId, skill: drift.name, kind: "changed", action: "reload" });
      }
    }
    if (events.length === 0) return { state, update: undefined, events: trace };
    const next = this.apply(state, { events });
    trace.push(...unloadedEvents(state, next, this.agentId, last?.getType() === "human" ? "turn-ended" : "removed"));
    return { state: next, update: { events, maxLoaded: this.options.maxLoadedSkills }, events: trace };
  }

  /** After a model call: count it when a `once` skill is loaded (consumes it); otherwise nothing to record, no channel write. */
  afterModel(state: AgentSkillsState): PreparedState {
    if (!Object.values(state.load.loaded).some((entry) => entry.mode === "once")) return { state, update: undefined, events: [] };
    const events: SkillLoadEvent[] = [{ type: "model-call", seq: state.load.seq + 1 }];
    const next = this.apply(state, { events });
    return { state: next, update: { events, maxLoaded: this.options.maxLoadedSkills }, events: unloadedEvents(state, next, this.agentId, "once-consumed") };
  }

  /** The turn is over (the agent answered): drop `turn` and `once` skills. */
  endTurn(state: AgentSkillsState): PreparedState {
    const events: SkillLoadEvent[] = [{ type: "end-turn", seq: state.load.seq + 1 }];
    const next = this.apply(state, { events });
    return { state: next, update: { events, maxLoaded: this.options.maxLoadedSkills }, events: unloadedEvents(state, next, this.agentId, "turn-ended") };
  }

  /** Applies an update locally (what the channel reducer will do). */
  apply(state: AgentSkillsState, update: AgentSkillsUpdate): AgentSkillsState {
    const load = update.events && update.events.length > 0 ? applyLoadEvents(state.load, update.events, { maxLoaded: this.options.maxLoadedSkills }).state : state.load;
    const disabled = update.disable ? [...new Set([...state.disabled, ...update.disable])].sort() : state.disabled;
    return { load, disabled };
  }

  /** Rewrites a model request: skills prompt appended to the system text, tools of loaded skills added, loaded bodies materialised. */
  async buildModelRequest(input: { state: AgentSkillsState; catalog: SkillCatalog; systemText: string; messages: readonly BaseMessage[]; tools: readonly StructuredToolInterface[]; threadId?: string }): Promise<BuiltModelRequest> {
    const { state, catalog } = input;
    const cache = this.cacheFor(catalog);
    const loaded = this.loadedMetadata(state, catalog);
    const restricted = this.restriction(loaded, cache.index);
    const own = new Set([...SKILLS_TOOL_NAMES, ...cache.index.owners.keys(), ...this.hookTools.keys()]);
    const userTools = input.tools.filter((tool) => !own.has(tool.name) && (!restricted || restricted.has(tool.name.toLowerCase()) || this.options.toolExposure !== "dynamic"));
    const tools = [...userTools, ...cache.skillsTools, ...this.exposedTools(state, loaded, cache.index, input.threadId)];
    let systemText = joinText(input.systemText, cache.section);
    if (this.options.bodyPlacement === "system-prompt" && loaded.length > 0) systemText = joinText(systemText, await this.loadedSection(state, catalog, loaded, cache.index));
    const messages = await this.materialise(input.messages, state, catalog, cache.index);
    return { systemText, messages, tools };
  }

  /** Decides whether a tool call may run, is a skills tool, or is answered with an explanation instead. */
  gateToolCall(call: EngineToolCall, state: AgentSkillsState, catalog: SkillCatalog, threadId?: string): GateDecision {
    const name = call.name;
    if (name === CALL_SKILL_TOOL && this.options.toolExposure === "dispatcher") {
      const inner = parseDispatch(call.args);
      if ("error" in inner) return { action: "block", reason: inner.error };
      if (this.isSkillsToolName(inner.tool)) return { action: "block", reason: `Call ${inner.tool} directly, not through ${CALL_SKILL_TOOL}.` };
      const decision = this.gateToolCall({ name: inner.tool, args: inner.args, id: call.id }, state, catalog, threadId);
      if (decision.action === "run" && !decision.tool) return { action: "block", reason: `'${inner.tool}' is not a skill tool; call it directly.` };
      return decision;
    }
    if (this.isSkillsToolName(name) && (name !== DISABLE_SKILL || this.options.allowDisableSkill) && name !== CALL_SKILL_TOOL) return { action: "skills-tool" };
    const cache = this.cacheFor(catalog);
    const loaded = this.loadedMetadata(state, catalog);
    const hooked = this.hookTools.get(name);
    if (hooked) {
      const hook = this.options.hooks[hooked.hook]!;
      const context: SkillsToolHookContext = { loadedSkills: loaded, threadId };
      if (!hook.visibleTools(context).includes(name)) return { action: "block", reason: `Tool '${name}' is not available now: load a skill that uses it first (read_skill).` };
      const verdict = hook.authorize?.({ toolName: name, args: call.args }, context);
      if (verdict && !verdict.allowed) return { action: "block", reason: `Tool '${name}' refused: ${verdict.reason}` };
      return { action: "run", call, tool: hooked.tool };
    }
    const owners = cache.index.owners.get(name);
    if (owners) {
      const loadedOwner = owners.find((owner) => state.load.loaded[owner] !== undefined);
      if (!loadedOwner) {
        const reason =
          owners.length === 0
            ? `Tool '${name}' is not available: no skill visible to this agent unlocks it.`
            : `Tool '${name}' belongs to skill ${owners.map((owner) => `'${owner}'`).join(" or ")}, which is not loaded. Call read_skill with {"name": "${owners[0]}"} first, then retry.`;
        return { action: "block", reason };
      }
      const restricted = this.restriction(loaded, cache.index);
      if (restricted && !restricted.has(name.toLowerCase()) && !this.ownedByLoaded(name, loaded, cache.index)) return { action: "block", reason: restrictionReason(name, loaded, cache.index) };
      return { action: "run", call, tool: this.servedTools.find((tool) => tool.name === name), owner: loadedOwner };
    }
    if (catalog.has(name)) return { action: "block", reason: `'${name}' is a skill, not a tool. Call read_skill with {"name": "${name}"} to load its instructions, then follow them.` };
    const restricted = this.restriction(loaded, cache.index);
    if (restricted && !restricted.has(name.toLowerCase())) return { action: "block", reason: restrictionReason(name, loaded, cache.index) };
    return { action: "run", call };
  }

  /** Runs a skills tool call against this agent's state. */
  async runSkillsTool(call: EngineToolCall, state: AgentSkillsState, catalog: SkillCatalog): Promise<SkillsToolOutcome> {
    const cache = this.cacheFor(catalog);
    const context: SkillsToolContext = { catalog, agentId: this.agentId, state, options: this.options, ownedTools: (skill) => cache.index.owned.get(skill) ?? [] };
    switch (call.name) {
      case READ_SKILL: {
        const outcome = await runReadSkill(call.args, context);
        const hash = outcome.artifact?.hash;
        const name = outcome.artifact?.skill;
        if (name && hash) {
          await this.bodies.current(catalog, name, hash);
          const entry = state.load.loaded[name];
          if (entry && entry.hash === hash && this.options.bodyPlacement === "tool-result") {
            return { content: `Skill '${name}' is already loaded: its instructions are in an earlier read_skill result.`, update: { events: [{ type: "touch", name, seq: state.load.seq + 1 }] } };
          }
          outcome.events = [...(outcome.events ?? []), ...evictionEvents(state, this.apply(state, outcome.update ?? {}), this.agentId)];
        }
        return outcome;
      }
      case READ_SKILL_FILE:
        return runReadSkillFile(call.args, context);
      case SEARCH_SKILLS:
        return runSearchSkills(call.args, context);
      case LIST_SKILL_FILES:
        return runListSkillFiles(call.args, context);
      case DISABLE_SKILL:
        return runDisableSkill(call.args, context);
      default:
        return { content: `Unknown skills tool '${call.name}'.`, status: "error" };
    }
  }

  /** Load events recording that a loaded skill's tool was used (keeps it recent for the LRU cap). */
  touch(owner: string | undefined, state: AgentSkillsState): AgentSkillsUpdate | undefined {
    if (!owner || !state.load.loaded[owner]) return undefined;
    return { events: [{ type: "touch", name: owner, seq: state.load.seq + 1 }] };
  }

  private loadedMetadata(state: AgentSkillsState, catalog: SkillCatalog): SkillMetadata[] {
    const result: SkillMetadata[] = [];
    for (const name of Object.keys(state.load.loaded).sort()) {
      const skill = catalog.get(name);
      if (skill) result.push(skill);
    }
    return result;
  }

  /** Lower-cased names allowed while a restricting skill is loaded (restrict mode), or undefined when unrestricted. */
  private restriction(loaded: readonly SkillMetadata[], index: SkillToolIndex): Set<string> | undefined {
    if (!this.options.restrictTools) return undefined;
    const restricting = loaded.filter((skill) => index.declared.has(skill.name));
    if (restricting.length === 0) return undefined;
    const allowed = new Set<string>(SKILLS_TOOL_NAMES);
    for (const skill of restricting) for (const name of index.declared.get(skill.name)!) allowed.add(name);
    for (const skill of loaded) for (const tool of index.owned.get(skill.name) ?? []) allowed.add(tool.name.toLowerCase());
    return allowed;
  }

  private ownedByLoaded(toolName: string, loaded: readonly SkillMetadata[], index: SkillToolIndex): boolean {
    return loaded.some((skill) => (index.owned.get(skill.name) ?? []).some((tool) => tool.name === toolName));
  }

  private exposedTools(state: AgentSkillsState, loaded: readonly SkillMetadata[], index: SkillToolIndex, threadId: string | undefined): StructuredToolInterface[] {
    const hookTools = this.options.hooks.flatMap((hook) => {
      if (this.options.toolExposure !== "dynamic") return hook.tools;
      const visible = new Set(hook.visibleTools({ loadedSkills: loaded, threadId }));
      return hook.tools.filter((tool) => visible.has(tool.name));
    });
    if (this.options.toolExposure === "static") return [...index.allOwned, ...hookTools];
    if (this.options.toolExposure === "dispatcher") return hookTools;
    const unlocked = new Map<string, StructuredToolInterface>();
    for (const name of Object.keys(state.load.loaded)) for (const tool of index.owned.get(name) ?? []) unlocked.set(tool.name, tool);
    return [...[...unlocked.values()].sort((a, b) => (a.name < b.name ? -1 : 1)), ...hookTools];
  }

  private async bodyFor(name: string, recordedHash: string, catalog: SkillCatalog): Promise<{ body: string; changed: boolean }> {
    const current = catalog.get(name);
    if (this.options.onDrift === "keep") {
      const kept = this.bodies.peek(name, recordedHash);
      if (kept !== undefined) return { body: kept, changed: false };
    }
    const hash = current?.hash ?? recordedHash;
    return { body: await this.bodies.current(catalog, name, hash), changed: hash !== recordedHash && this.options.onDrift === "reload" };
  }

  private async loadedSection(state: AgentSkillsState, catalog: SkillCatalog, loaded: readonly SkillMetadata[], index: SkillToolIndex): Promise<string> {
    const entries = loaded.map((skill) => state.load.loaded[skill.name]!).sort((a, b) => a.loadedSeq - b.loadedSeq || (a.name < b.name ? -1 : 1));
    const parts: string[] = [];
    for (const entry of entries) {
      const { body, changed } = await this.bodyFor(entry.name, entry.hash, catalog);
      parts.push(skillBlock(entry.name, body, changed) + this.dispatcherNote(entry.name, index));
    }
    return `<loaded_skills>\n${parts.join("\n")}\n</loaded_skills>`;
  }

  private dispatcherNote(skill: string, index: SkillToolIndex): string {
    if (this.options.toolExposure !== "dispatcher") return "";
    const tools = index.owned.get(skill) ?? [];
    if (tools.length === 0) return "";
    const lines = tools.map((tool) => `- ${tool.name}: ${tool.description}\n  arguments (JSON schema): ${JSON.stringify(schemaOf(tool))}`);
    return `\nCall these with ${CALL_SKILL_TOOL}({"tool": "<name>", "arguments": {...}}):\n${lines.join("\n")}`;
  }

  private async materialise(messages: readonly BaseMessage[], state: AgentSkillsState, catalog: SkillCatalog, index: SkillToolIndex): Promise<BaseMessage[]> {
    const out: BaseMessage[] = [];
    for (const message of messages) {
      const artifact = bodyArtifact(message);
      if (!artifact || artifact.agentId !== this.agentId) {
        out.push(message);
        continue;
      }
      const tool = message as ToolMessage;
      const entry = state.load.loaded[artifact.skill];
      let content: string;
      if (!entry) {
        const why = catalog.has(artifact.skill) ? "it is no longer loaded" : "it was removed from the skill registry";
        content = `[Skill '${artifact.skill}' instructions omitted: ${why}. Call read_skill with {"name": "${artifact.skill}"} again if you need them.]`;
      } else if (this.options.bodyPlacement === "system-prompt") {
        content = String(tool.content);
      } else {
        const { body, changed } = await this.bodyFor(artifact.skill, artifact.hash, catalog);
        content = `${skillBlock(artifact.skill, body, changed)}\n\n${String(tool.content)}${this.dispatcherNote(artifact.skill, index)}`;
      }
      out.push(new ToolMessage({ content, tool_call_id: tool.tool_call_id, name: tool.name, id: tool.id, artifact: tool.artifact, status: tool.status }));
    }
    return out;
  }
}

function schemaOf(tool: StructuredToolInterface): unknown {
  try {
    return toJsonSchema(tool.schema as Parameters<typeof toJsonSchema>[0]);
  } catch {
    return {};
  }
}

function joinText(base: string, extra: string): string {
  if (!extra) return base;
  return base ? `${base}\n\n${extra}` : extra;
}

function intersect(a: readonly string[] | undefined, b: readonly string[] | undefined): readonly string[] | undefined {
  if (!a) return b;
  if (!b) return a;
  const keep = new Set(b);
  return a.filter((name) => keep.has(name));
}

const viewIds = new WeakMap<SkillCatalog, number>();
let nextViewId = 0;
function viewKey(catalog: SkillCatalog): string {
  let id = viewIds.get(catalog);
  if (id === undefined) {
    id = nextViewId++;
    viewIds.set(catalog, id);
  }
  return String(id);
}

function restrictionReason(name: string, loaded: readonly SkillMetadata[], index: SkillToolIndex): string {
  const active = loaded.filter((skill) => index.declared.has(skill.name)).map((skill) => `'${skill.name}'`);
  return `Tool '${name}' is not allowed while skill ${active.join(", ")} is active (its allowed-tools restrict the tools in use).`;
}
