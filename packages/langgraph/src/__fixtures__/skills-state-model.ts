// Test support for the skills channel's property tests: a writer that turns an agent's action into the update the real
// tools and nodes emit (reading the state it was given), and an independent model of what an agent's state should be
// once every change of a step is kept.
import fc from "fast-check";
import type { AgentSkillsState, LoadMode, SkillLoadEvent, SkillsStateValue } from "../internal/core.js";
import type { AgentSkillsUpdate } from "../state/skills-state.js";

/** What one agent does in one step. */
export type Action =
  | { kind: "load"; name: string; mode: LoadMode }
  | { kind: "unload"; name: string }
  | { kind: "disable"; name: string }
  | { kind: "touch"; name: string }
  | { kind: "doc"; name: string; path: string }
  | { kind: "model-call" }
  | { kind: "end-turn" };

/** The writer's cap (`maxLoadedSkills`): a load over it unloads the least recently used skill in the same update. */
export const CAP = 3;

const name = fc.constantFrom("s1", "s2", "s3", "s4", "s5");
const mode = fc.constantFrom<LoadMode>("once", "turn", "session");

/** A random action (loads most often, so that the cap and reloads come up). */
export const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("load" as const), name, mode }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("unload" as const), name }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("disable" as const), name }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("touch" as const), name }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("doc" as const), name, path: fc.constantFrom("a.md", "b.md") }),
  },
  { weight: 1, arbitrary: fc.constantFrom<Action>({ kind: "model-call" }, { kind: "end-turn" }) },
);

/**
 * The update the runtime writes for `action` on `state` (undefined when it writes nothing), as the tools do: events at
 * `state.load.seq + 1`; read_skill refuses a disabled skill and unloads the least recently used over the cap;
 * disable_skill refuses an already disabled skill and unloads the skill only if it is loaded; model-call and end-turn
 * only when they change something.
 */
export function writeAction(state: AgentSkillsState, action: Action): AgentSkillsUpdate | undefined {
  const seq = state.load.seq + 1;
  const loaded = state.load.loaded;
  const entries = Object.values(loaded);
  switch (action.kind) {
    case "load": {
      if (state.disabled.includes(action.name)) return undefined;
      const evicted = loaded[action.name] ? [] : leastRecentlyUsed(state, entries.length + 1 - CAP, action.name);
      const unloads = evicted.map((evictee): SkillLoadEvent => ({ type: "unload", name: evictee, seq }));
      return {
        events: [...unloads, { type: "load", name: action.name, mode: action.mode, hash: `h-${action.name}`, seq }],
      };
    }
    case "unload":
    case "touch":
      return loaded[action.name] ? { events: [{ type: action.kind, name: action.name, seq }] } : undefined;
    case "doc":
      return loaded[action.name] ? { events: [{ type: "doc", name: action.name, path: action.path, seq }] } : undefined;
    case "disable":
      if (state.disabled.includes(action.name)) return undefined;
      return { events: loaded[action.name] ? [{ type: "unload", name: action.name, seq }] : [], disable: [action.name] };
    case "model-call":
      return entries.some((entry) => entry.mode === "once" && !entry.consumed)
        ? { events: [{ type: "model-call", seq }] }
        : undefined;
    case "end-turn":
      return entries.some((entry) => entry.mode !== "session") ? { events: [{ type: "end-turn", seq }] } : undefined;
  }
}

function leastRecentlyUsed(state: AgentSkillsState, count: number, keep: string): string[] {
  if (count <= 0) return [];
  return Object.values(state.load.loaded)
    .filter((entry) => entry.name !== keep)
    .sort((a, b) => a.lastUsedSeq - b.lastUsedSeq || (a.name < b.name ? -1 : 1))
    .slice(0, count)
    .map((entry) => entry.name);
}

/** The model's view of one loaded skill. */
export interface ModelEntry {
  mode: LoadMode;
  docs: string[];
  consumed: boolean;
}

/** The model of one agent: what is loaded, and what is disabled. */
export interface ModelAgent {
  loaded: Record<string, ModelEntry>;
  disabled: string[];
}

const strength: Record<LoadMode, number> = { once: 0, turn: 1, session: 2 };
const stronger = (a: LoadMode, b: LoadMode) => (strength[a] >= strength[b] ? a : b);

/**
 * One step of one agent in the model: the updates every branch wrote for it in one superstep, all kept. Removals act
 * on what was loaded before the step (end-turn, model-call marking `once` bodies consumed, unloads), then loads
 * (a skill still loaded keeps its docs and the stronger mode; a load beats an unload of the same step), then doc
 * reads of skills loaded after that; disabled names are united.
 */
export function modelStep(agent: ModelAgent, updates: readonly AgentSkillsUpdate[]): ModelAgent {
  const events = updates.flatMap((update) => update.events ?? []);
  const has = (type: SkillLoadEvent["type"]) => events.some((event) => event.type === type);
  const loaded: Record<string, ModelEntry> = {};
  for (const [skill, entry] of Object.entries(agent.loaded)) {
    if (has("end-turn") && entry.mode !== "session") continue;
    loaded[skill] = { ...entry, consumed: entry.consumed || (has("model-call") && entry.mode === "once") };
  }
  for (const event of events) if (event.type === "unload") delete loaded[event.name];
  const loads = new Map<string, LoadMode>();
  for (const event of events)
    if (event.type === "load") loads.set(event.name, stronger(loads.get(event.name) ?? "once", event.mode));
  for (const [skill, loadMode] of loads) {
    const existing = loaded[skill];
    loaded[skill] = existing
      ? { mode: stronger(existing.mode, loadMode), docs: existing.docs, consumed: false }
      : { mode: loadMode, docs: [], consumed: false };
  }
  for (const event of events)
    if (event.type === "doc" && loaded[event.name])
      loaded[event.name] = { ...loaded[event.name]!, docs: [...new Set([...loaded[event.name]!.docs, event.path])] };
  const disabled = [...agent.disabled, ...updates.flatMap((update) => update.disable ?? [])];
  return { loaded, disabled: [...new Set(disabled)].sort() };
}

/** A fresh model agent. */
export function emptyModelAgent(): ModelAgent {
  return { loaded: {}, disabled: [] };
}

/** The real state of every agent, seen the way the model sees it (sorted, docs sorted). */
export function project(value: SkillsStateValue): Record<string, ModelAgent> {
  const agents: Record<string, ModelAgent> = {};
  for (const agentId of Object.keys(value).sort()) {
    const state = value[agentId]!;
    const loaded: Record<string, ModelEntry> = {};
    for (const skill of Object.keys(state.load.loaded).sort()) {
      const entry = state.load.loaded[skill]!;
      loaded[skill] = { mode: entry.mode, docs: [...entry.docs].sort(), consumed: entry.consumed === true };
    }
    agents[agentId] = { loaded, disabled: [...state.disabled].sort() };
  }
  return agents;
}

/** The model of every agent, sorted the same way as `project`. */
export function sortModel(model: Record<string, ModelAgent>): Record<string, ModelAgent> {
  const agents: Record<string, ModelAgent> = {};
  for (const agentId of Object.keys(model).sort()) {
    const loaded: Record<string, ModelEntry> = {};
    for (const skill of Object.keys(model[agentId]!.loaded).sort())
      loaded[skill] = { ...model[agentId]!.loaded[skill]!, docs: [...model[agentId]!.loaded[skill]!.docs].sort() };
    agents[agentId] = { loaded, disabled: [...model[agentId]!.disabled].sort() };
  }
  return agents;
}

/** JSON with object keys sorted at every level: equal content, equal text. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : inner,
  );
}

/** Every order of `items`. */
export function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]),
  );
}
