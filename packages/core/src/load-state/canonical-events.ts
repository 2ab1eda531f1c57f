import type { SkillLoadEvent } from "./load-state-types.js";

const rank: Record<SkillLoadEvent["type"], number> = {
  reset: 0,
  "end-turn": 1,
  "model-call": 2,
  unload: 3,
  undoc: 4,
  load: 5,
  doc: 6,
  touch: 7,
};

function eventKey(event: SkillLoadEvent): string {
  switch (event.type) {
    case "load":
      return JSON.stringify([rank.load, event.name, event.mode, event.hash]);
    case "doc":
      return JSON.stringify([rank.doc, event.name, event.path]);
    case "undoc":
      return JSON.stringify([rank.undoc, event.name, event.path ?? ""]);
    case "touch":
    case "unload":
      return JSON.stringify([rank[event.type], event.name]);
    default:
      return JSON.stringify([rank[event.type]]);
  }
}

/**
 * The events of one seq as a canonical set: duplicates removed, sorted by (kind, name, fields) and re-stamped with
 * `seq`. Two updates delivered in either order therefore leave byte-identical journals.
 */
export function canonicalEvents(events: Iterable<SkillLoadEvent>, seq: number): SkillLoadEvent[] {
  const byKey = new Map<string, SkillLoadEvent>();
  for (const event of events) {
    const key = eventKey(event);
    if (!byKey.has(key)) byKey.set(key, restamp(event, seq));
  }
  return [...byKey.keys()].sort(compareCodeUnits).map((key) => byKey.get(key) as SkillLoadEvent);
}

/** A copy of `event` with `seq` replaced, keys in a fixed order (so journals serialise to the same bytes). */
function restamp(event: SkillLoadEvent, seq: number): SkillLoadEvent {
  switch (event.type) {
    case "load":
      return { type: "load", name: event.name, mode: event.mode, hash: event.hash, seq };
    case "doc":
      return { type: "doc", name: event.name, path: event.path, seq };
    case "undoc":
      return event.path === undefined
        ? { type: "undoc", name: event.name, seq }
        : { type: "undoc", name: event.name, path: event.path, seq };
    case "touch":
    case "unload":
      return { type: event.type, name: event.name, seq };
    default:
      return { type: event.type, seq };
  }
}

/** Code-unit string order (what `<` does), independent of locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
