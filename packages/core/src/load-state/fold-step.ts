import { compareCodeUnits } from "./canonical-events.js";
import type { LoadedSkillEntry, LoadMode, SkillLoadEvent } from "./load-state-types.js";

const precedence: Record<LoadMode, number> = { once: 0, turn: 1, session: 2 };

/** The stronger of two modes: session > turn > once. */
export function strongerMode(a: LoadMode, b: LoadMode): LoadMode {
  return precedence[a] >= precedence[b] ? a : b;
}

/**
 * Applies the whole set of events of one step (all at `seq`, canonical order) to the loaded set before that step.
 * Order inside a step, whatever order the events arrived in: removals act on what was loaded before the step
 * (reset, end-turn, model-call, unload, undoc), then loads (merged per name), then doc reads and touches, then the cap
 * evicts the smallest `(lastUsedSeq, name)` until at most `maxLoaded` remain.
 */
export function foldStep(
  base: Readonly<Record<string, LoadedSkillEntry>>,
  events: readonly SkillLoadEvent[],
  seq: number,
  maxLoaded: number,
): { loaded: Record<string, LoadedSkillEntry>; evicted: string[] } {
  const entries = new Map<string, LoadedSkillEntry>(Object.entries(base));
  applyStepMarkers(entries, events, seq);

  const loads = new Map<string, { mode: LoadMode; hash: string }>();
  const docs = new Map<string, string[]>();
  const used = new Set<string>();
  for (const event of events) {
    if (event.type === "unload") entries.delete(event.name);
    else if (event.type === "undoc") {
      const existing = entries.get(event.name);
      if (existing)
        entries.set(event.name, {
          ...existing,
          docs: event.path === undefined ? [] : existing.docs.filter((path) => path !== event.path),
        });
    } else if (event.type === "load") {
      const seen = loads.get(event.name);
      loads.set(
        event.name,
        seen
          ? { mode: strongerMode(seen.mode, event.mode), hash: seen.hash >= event.hash ? seen.hash : event.hash }
          : { mode: event.mode, hash: event.hash },
      );
    } else if (event.type === "doc") docs.set(event.name, [...(docs.get(event.name) ?? []), event.path]);
    else if (event.type === "touch") used.add(event.name);
  }

  for (const [name, load] of loads) {
    const existing = entries.get(name);
    entries.set(
      name,
      existing
        ? {
            ...withoutConsumed(existing),
            mode: strongerMode(existing.mode, load.mode),
            hash: load.hash,
            lastUsedSeq: Math.max(existing.lastUsedSeq, seq),
          }
        : { name, mode: load.mode, loadedSeq: seq, lastUsedSeq: seq, hash: load.hash, docs: [] },
    );
  }
  for (const [name, paths] of docs) {
    const existing = entries.get(name);
    if (existing)
      entries.set(name, {
        ...existing,
        docs: mergeDocs(existing.docs, paths),
        lastUsedSeq: Math.max(existing.lastUsedSeq, seq),
      });
  }
  for (const name of used) {
    const existing = entries.get(name);
    if (existing && existing.lastUsedSeq < seq) entries.set(name, { ...existing, lastUsedSeq: seq });
  }

  const evicted = evictOverCap(entries, maxLoaded);
  const loaded: Record<string, LoadedSkillEntry> = {};
  for (const name of [...entries.keys()].sort(compareCodeUnits)) loaded[name] = entries.get(name) as LoadedSkillEntry;
  return { loaded, evicted };
}

/** A read again shows the body again: the entry is no longer consumed. */
function withoutConsumed(entry: LoadedSkillEntry): LoadedSkillEntry {
  const { consumed: _consumed, ...rest } = entry;
  return rest;
}

function dropWhere(entries: Map<string, LoadedSkillEntry>, drop: (entry: LoadedSkillEntry) => boolean): void {
  for (const [name, entry] of entries) if (drop(entry)) entries.delete(name);
}

function mergeDocs(current: readonly string[], added: readonly string[]): string[] {
  return [...new Set([...current, ...added])].sort(compareCodeUnits);
}

/** Removes least recently used entries (smallest lastUsedSeq, then name) until at most `maxLoaded` remain; returns their names. */
function evictOverCap(entries: Map<string, LoadedSkillEntry>, maxLoaded: number): string[] {
  if (entries.size <= maxLoaded) return [];
  const order = [...entries.values()].sort((a, b) => a.lastUsedSeq - b.lastUsedSeq || compareCodeUnits(a.name, b.name));
  const evicted = order.slice(0, entries.size - maxLoaded).map((entry) => entry.name);
  for (const name of evicted) entries.delete(name);
  return evicted;
}

/** The step-wide events first: `reset` empties, `end-turn` drops all but `session`, `model-call` consumes `once` bodies. */
function applyStepMarkers(
  entries: Map<string, LoadedSkillEntry>,
  events: readonly SkillLoadEvent[],
  seq: number,
): void {
  const has = (type: SkillLoadEvent["type"]) => events.some((event) => event.type === type);
  if (has("reset")) entries.clear();
  if (has("end-turn")) dropWhere(entries, (entry) => entry.mode !== "session");
  if (!has("model-call")) return;
  for (const [name, entry] of entries)
    if (entry.mode === "once" && entry.loadedSeq < seq && !entry.consumed)
      entries.set(name, { ...entry, consumed: true });
}
