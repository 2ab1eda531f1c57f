// How a whole agent state (a subgraph's output, a restore) merges into the channel's entry for that agent, per field,
// so that parallel Send branches writing back their copies of the channel lose no change whatever order they land in.
import { applyLoadEvents } from "../internal/core.js";
import type { AgentSkillsState, SkillLoadEvent, SkillLoadState } from "../internal/core.js";

type LoadStep = NonNullable<SkillLoadState["journal"]>;

/**
 * Joins two states of one agent: the load state by its sequence (see joinLoadStates), the disabled skills by union.
 * Commutative, associative and idempotent (up to the journal's key order), so the order the branches' writes are
 * applied in, and a write applied twice, do not change the result.
 */
export function mergeAgentSkillsState(
  present: AgentSkillsState | undefined,
  incoming: AgentSkillsState,
): AgentSkillsState {
  const disabled = uniteDisabled(present?.disabled, incoming.disabled);
  return { load: present ? joinLoadStates(present.load, incoming.load) : incoming.load, disabled };
}

/** The sorted union of two lists of disabled skill names (a disable is never undone on a thread, so union keeps all). */
export function uniteDisabled(a: readonly string[] | undefined, b: readonly string[] | undefined): string[] {
  return [...new Set([...(a ?? []), ...(b ?? [])])].sort();
}

/**
 * The join of two load states of one agent. The higher `seq` wins: every change to what is loaded raises it, so the
 * copy of the branch that owns the agent is ahead of the stale copies other branches carry. At the same `seq`, states whose latest step started from the same loaded set are one step
 * taken in parallel: the result is that step with both sides' events (what the step's event updates would have given).
 * Two states of the same `seq` with different starting sets cannot be joined; the one whose starting set has the
 * greater canonical JSON is kept (an arbitrary but fixed choice, so the join stays a lattice join).
 */
export function joinLoadStates(a: SkillLoadState, b: SkillLoadState): SkillLoadState {
  // A whole state written by hand may lack `seq`: it counts as 0, as it always has.
  if ((a.seq ?? 0) !== (b.seq ?? 0)) return (a.seq ?? 0) > (b.seq ?? 0) ? a : b;
  // The usual case: a branch's stale copy of an entry no branch changed.
  if (sameData(a, b)) return a;
  const stepA = latestStep(a);
  const stepB = latestStep(b);
  if (!sameData(stepA.base, stepB.base)) {
    const baseA = canonicalJson(stepA.base);
    return baseA > canonicalJson(stepB.base) ? a : b;
  }
  // One side's events include the other's: that side is the join.
  const eventsA = new Set(stepA.events.map((event) => JSON.stringify(event)));
  const eventsB = new Set(stepB.events.map((event) => JSON.stringify(event)));
  const aHasB = [...eventsB].every((event) => eventsA.has(event));
  const bHasA = [...eventsA].every((event) => eventsB.has(event));
  if (aHasB && bHasA && stepA.events.length === 0)
    // Neither side has events of this step: both should equal their base; keep the greater if they somehow differ.
    return sameData(a.loaded, b.loaded) || canonicalJson(a.loaded) >= canonicalJson(b.loaded) ? a : b;
  if (aHasB) return a;
  if (bHasA) return b;
  return applyLoadEvents(a, restamp(stepB.events, a.seq)).state;
}

/** The latest step of a state: its journal, or (a state without one, e.g. an old checkpoint) its loaded set with no events. */
function latestStep(state: SkillLoadState): LoadStep {
  return state.journal ?? { base: state.loaded, events: [] };
}

function restamp(events: readonly SkillLoadEvent[], seq: number): SkillLoadEvent[] {
  return events.map((event) => (event.seq === seq ? event : { ...event, seq }));
}

/** Deep equality of plain JSON data, whatever order object keys were written in. */
function sameData(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  const keysX = Object.keys(x);
  if (keysX.length !== Object.keys(y).length) return false;
  return keysX.every(
    (key) =>
      Object.hasOwn(y, key) && sameData((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]),
  );
}

/** JSON with object keys sorted at every level: equal content gives equal text whatever order keys were written in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : inner,
  );
}
