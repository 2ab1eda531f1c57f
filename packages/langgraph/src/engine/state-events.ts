// State and events: applying and merging an agent's load events, model-call and turn bookkeeping, drift, and the
// events that trace them.
import type { BaseMessage } from "@langchain/core/messages";
import type { SkillsEvent } from "../events/skills-event.js";
import { SkillDriftError, detectLoadedSkillDrift, type SkillCatalog, type SkillLoadEvent } from "../internal/core.js";
import type { ResolvedSkillsRuntimeOptions } from "../options/skills-runtime-options.js";
import type { SkillDriftPolicy } from "../internal/core.js";
import { applyAgentSkillsUpdate, type AgentSkillsState, type AgentSkillsUpdate } from "../state/skills-state.js";

/**
 * The skills to unload so that at most `maxLoadedSkills` stay loaded: the least recently used first (smallest
 * `(lastUsedSeq, name)`), never one of `keep`. The writer emits them as `unload` events; the reducer reads no cap.
 */
export function capEvictions(state: AgentSkillsState, maxLoadedSkills: number, keep: readonly string[] = []): string[] {
  const entries = Object.values(state.load.loaded);
  const over = entries.length - maxLoadedSkills;
  if (over <= 0) return [];
  return entries
    .filter((entry) => !keep.includes(entry.name))
    .sort((a, b) => a.lastUsedSeq - b.lastUsedSeq || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, over)
    .map((entry) => entry.name);
}

/** Joins several updates of one agent into one (events in order, disabled names united). */
export function mergeAgentUpdates(
  ...updates: ReadonlyArray<AgentSkillsUpdate | undefined>
): AgentSkillsUpdate | undefined {
  const present = updates.filter((update): update is AgentSkillsUpdate => update !== undefined);
  if (present.length === 0) return undefined;
  const events = present.flatMap((update) => update.events ?? []);
  const disable = present.flatMap((update) => update.disable ?? []);
  return { events, ...(disable.length > 0 ? { disable } : {}) };
}

/** Before a model call: end the turn when a new user message arrived, then settle drift of loaded skills. */
export function prepareModelCall(
  state: AgentSkillsState,
  messages: readonly BaseMessage[],
  catalog: SkillCatalog,
  options: ResolvedSkillsRuntimeOptions,
): PreparedState {
  const { agentId } = options;
  const events: SkillLoadEvent[] = [];
  const seq = state.load.seq + 1;
  const last = messages[messages.length - 1];
  const loadedNames = Object.keys(state.load.loaded);
  if (last && last.getType() === "human" && loadedNames.some((name) => state.load.loaded[name]!.mode !== "session"))
    events.push({ type: "end-turn", seq });
  const drift = driftEvents(state, catalog, options, seq);
  events.push(...drift.events);
  const trace = drift.trace;
  // Parallel loads of one step can go over the cap (each writer saw the state before the others): evict here.
  const settled = events.length === 0 ? state : applyAgentSkillsUpdate(state, { events });
  const reloaded = events.flatMap((event) => (event.type === "load" ? [event.name] : []));
  const over = capEvictions(settled, options.maxLoadedSkills, reloaded);
  events.push(...over.map((name) => ({ type: "unload" as const, name, seq })));
  if (events.length === 0) return { state, update: undefined, events: trace };
  const next = over.length === 0 ? settled : applyAgentSkillsUpdate(state, { events });
  trace.push(...evictionEvents(settled, next, agentId));
  trace.push(...unloadedEvents(state, settled, agentId, last?.getType() === "human" ? "turn-ended" : "removed"));
  return { state: next, update: { events }, events: trace };
}

/** State changes and trace events computed before a model call (turn end, drift). */
export interface PreparedState {
  state: AgentSkillsState;
  update: AgentSkillsUpdate | undefined;
  events: SkillsEvent[];
}

/**
 * After a model call: count it when a `once` skill's body was just shown (marks it consumed: its body is not shown
 * again, its tools stay until the turn ends); otherwise nothing to record, no channel write.
 */
export function afterModelCall(state: AgentSkillsState, agentId: string): PreparedState {
  if (!Object.values(state.load.loaded).some((entry) => entry.mode === "once" && !entry.consumed))
    return { state, update: undefined, events: [] };
  const events: SkillLoadEvent[] = [{ type: "model-call", seq: state.load.seq + 1 }];
  const next = applyAgentSkillsUpdate(state, { events });
  return {
    state: next,
    update: { events },
    events: unloadedEvents(state, next, agentId, "once-consumed"),
  };
}

/**
 * Whether a turn end can ever drop a skill these options load: only when `loadMode` or a `loadModes` entry is `turn` or
 * `once` (a `session` skill outlives the turn).
 */
export function loadsForTurns(options: Pick<ResolvedSkillsRuntimeOptions, "loadMode" | "loadModes">): boolean {
  return options.loadMode !== "session" || Object.values(options.loadModes).some((mode) => mode !== "session");
}

/** The turn is over (the agent answered): drop `turn` and `once` skills (no update when only `session` skills are loaded). */
export function endTurn(state: AgentSkillsState, agentId: string): PreparedState {
  if (Object.values(state.load.loaded).every((entry) => entry.mode === "session"))
    return { state, update: undefined, events: [] };
  const events: SkillLoadEvent[] = [{ type: "end-turn", seq: state.load.seq + 1 }];
  const next = applyAgentSkillsUpdate(state, { events });
  return {
    state: next,
    update: { events },
    events: unloadedEvents(state, next, agentId, "turn-ended"),
  };
}

/** Trace events for skills present before an update and gone after it. */
export function unloadedEvents(
  before: AgentSkillsState,
  after: AgentSkillsState,
  agentId: string,
  reason: "removed" | "turn-ended" | "once-consumed",
): SkillsEvent[] {
  return Object.keys(before.load.loaded)
    .filter((name) => !after.load.loaded[name])
    .map((skill) => ({ type: "skill-unloaded" as const, agentId, skill, reason }));
}

/** Trace events for skills the LRU cap evicted. */
export function evictionEvents(before: AgentSkillsState, after: AgentSkillsState, agentId: string): SkillsEvent[] {
  return Object.keys(before.load.loaded)
    .filter((name) => !after.load.loaded[name])
    .map((skill) => ({ type: "skill-evicted" as const, agentId, skill, reason: "cap" as const }));
}

/** Load events and trace events settling loaded skills that changed or vanished in the catalog; throws under `onDrift: "fail"`. */
export function driftEvents(
  state: AgentSkillsState,
  catalog: SkillCatalog,
  { onDrift, agentId }: { onDrift: SkillDriftPolicy; agentId: string },
  seq: number,
): { events: SkillLoadEvent[]; trace: SkillsEvent[] } {
  const events: SkillLoadEvent[] = [];
  const trace: SkillsEvent[] = [];
  const drifts = detectLoadedSkillDrift(state.load, (name) => catalog.get(name));
  for (const drift of drifts) {
    if (onDrift === "fail") throw new SkillDriftError({ drift: [drift], agentId });
    if (drift.kind === "removed") {
      events.push({ type: "unload", name: drift.name, seq });
      trace.push({ type: "skill-drift", agentId, skill: drift.name, kind: "removed", action: "reload" });
    } else if (onDrift === "reload") {
      const entry = state.load.loaded[drift.name]!;
      events.push({ type: "load", name: drift.name, mode: entry.mode, hash: drift.currentHash!, seq });
      trace.push({ type: "skill-drift", agentId, skill: drift.name, kind: "changed", action: "reload" });
    }
  }
  return { events, trace };
}
