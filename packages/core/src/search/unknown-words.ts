import { hasTerm, type IndexState } from "./index-state.js";
import type { QuerySlot } from "./query-slots.js";

/** Shortest plain word judged: below this, typo matching is off and short words are too often abbreviations. */
const MIN_LETTERS = 6;

/**
 * Whether a phrasing holds a plain word (letters only, at least six) that no skill uses: not by itself, not in a near
 * spelling, not through a stand-in. Such a word is usually the one thing the request is about (a product, a service,
 * a method) and no skill mentions it, so no match may be called a clear fit, however well the other words match.
 */
export function hasUnknownWord(slots: readonly QuerySlot[], state: IndexState): boolean {
  return slots.some(
    (slot) =>
      slot.term.length >= MIN_LETTERS &&
      /^[a-z]+$/.test(slot.term) &&
      !slot.alternatives.some((alternative) => hasTerm(state, alternative.term)),
  );
}
