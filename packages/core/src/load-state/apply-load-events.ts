import { canonicalEvents } from "./canonical-events.js";
import { checkLoadEvent } from "./check-load-event.js";
import { checkLoadStateOptions } from "./check-load-state-options.js";
import { foldStep } from "./fold-step.js";
import type { LoadedSkillEntry, LoadStateOptions, SkillLoadEvent, SkillLoadState } from "./load-state-types.js";

/**
 * Applies events to a load state without mutating it. Events of the state's current seq (or older) join that
 * step and are merged with the updates already applied for it, so parallel tool calls of one step give the same
 * state in any order; a higher seq starts a new step. See docs/load-state.md for the merge rules.
 *
 * @param state the state the events apply to
 * @param events events of one tool call (all with `seq = nextSeq(state)`), or of several steps in seq order
 * @param options `maxLoadedSkills`: cap on loaded skills, least recently used evicted first (tie-break by name)
 * @returns the new state and the names the cap evicted (loaded before or by these events, gone now)
 * @example
 * const { state } = applyLoadEvents(emptyLoadState(), [{ type: "load", name: "pdf", mode: "turn", hash: "ab12", seq: 1 }]);
 * loadedSkillNames(state); // ["pdf"]
 */
export function applyLoadEvents(
  state: SkillLoadState,
  events: readonly SkillLoadEvent[],
  options?: LoadStateOptions,
): { state: SkillLoadState; evicted: string[] } {
  const maxLoaded = checkLoadStateOptions(options);
  events.forEach(checkLoadEvent);
  if (events.length === 0) return { state, evicted: [] };

  const candidates = new Set(Object.keys(state.loaded));
  const evicted = new Set<string>();
  let seq = state.seq;
  let loaded = state.loaded;
  let step: { base: Record<string, LoadedSkillEntry>; events: SkillLoadEvent[] } | undefined;

  const fold = () => {
    if (!step) return;
    const result = foldStep(step.base, step.events, seq, maxLoaded);
    loaded = result.loaded;
    for (const name of result.evicted) evicted.add(name);
  };

  for (const event of events) {
    if (event.type === "load") candidates.add(event.name);
    if (event.seq > seq) {
      fold();
      seq = event.seq;
      step = { base: loaded, events: [] };
    } else if (!step) {
      // Joins the step already applied at state.seq (a parallel update), or starts one if the state has no journal.
      step = state.journal
        ? { base: state.journal.base, events: [...state.journal.events] }
        : { base: state.loaded, events: [] };
    }
    step.events.push(event);
  }
  if (!step) return { state, evicted: [] };
  step.events = canonicalEvents(step.events, seq);
  fold();

  const reported = [...evicted].filter((name) => candidates.has(name) && !(name in loaded)).sort();
  return { state: { seq, loaded, journal: { base: step.base, events: step.events } }, evicted: reported };
}
