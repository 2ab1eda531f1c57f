// Plain version of core's termsOfList ("list-table"): a stored term list is split on spaces, checked with a regular
// expression and a Set, and each term looked up in the term table by string, instead of scanning a Uint16Array copy
// through a code-unit hash table with Int32Array marks. Same lists, same refusals; swapped in by swap-search-hooks.mjs
// for bench/search-postings.ts. Everything else is core's module.
import { releaseTermSlots, termOfSlot, termSlotOf } from "../../../packages/core/src/search/term-slots.js";
import { markPlainPart } from "./loaded-parts.js";

export * from "../../../packages/core/src/search/term-slots.js";

markPlainPart("list-table");

const WHITESPACE = /\s/;

/** The terms of a list joined by single spaces, as the table's shared strings; undefined when repeated, empty or spaced. */
export function termsOfList(text: string): string[] | undefined {
  releaseTermSlots();
  const list = text.split(" ");
  const seen = new Set<string>();
  for (let k = 0; k < list.length; k++) {
    const term = list[k]!;
    if (term === "" || WHITESPACE.test(term) || seen.has(term)) return undefined;
    seen.add(term);
    list[k] = termOfSlot(termSlotOf(term));
  }
  return list;
}
