// Plain version of core's visitTerms ("word-table"): a document's terms come from `tokenize` (the word list, a Map
// cache of stems), each looked up in the term table by string, instead of scanning a Uint16Array copy of the text
// through a code-unit hash table of known words. Same terms in the same order (core's differential test holds the two
// to that); swapped in by swap-search-hooks.mjs for bench/search-postings.ts. Everything else is core's module.
import { termOfSlot, termSlotOf } from "../../../packages/core/src/search/term-slots.js";
import { tokenize } from "../../../packages/core/src/search/tokenize.js";
import { markPlainPart } from "./loaded-parts.js";

export * from "../../../packages/core/src/search/tokenize.js";

markPlainPart("word-table");

/** Calls `visit` with each index term of `text` in order and its slot in the term table. */
export function visitTerms(text: string, visit: (term: string, slot: number) => void): void {
  for (const term of tokenize(text)) {
    const slot = termSlotOf(term);
    visit(termOfSlot(slot), slot);
  }
}
