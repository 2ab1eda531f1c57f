import { documentFrequency, type IndexState } from "./index-state.js";
import type { QuerySlot } from "./query-slots.js";
import { inverseDocumentFrequency } from "./rank-documents.js";
import { tokenize } from "./tokenize.js";

/** The packed frequencies of `term` in document `id` (0 when the document lacks it): a binary search of its postings. */
export function packedIn(state: IndexState, term: number, id: number): number {
  let low = state.starts[term]!;
  let high = state.starts[term + 1]! - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const doc = state.postingDocs[middle]!;
    if (doc === id) return state.postingPacked[middle]!;
    if (doc < id) low = middle + 1;
    else high = middle - 1;
  }
  return 0;
}

/**
 * How specific the rarest query word is that document `id` holds in its NAME (by the word itself or a stand-in): that
 * word's IDF over the IDF of a word no document has (0..1; 0 when its name matches no query word). A request naming
 * what a skill is called ("log hours in clockify", "QA the pptx") points at it more surely than its score says.
 */
export function nameMatch(state: IndexState, slots: readonly QuerySlot[], id: number): number {
  const most = inverseDocumentFrequency(0, state.count);
  let best = 0;
  for (const slot of slots) {
    const own = documentFrequency(state, slot.term);
    const share = own > 0 ? inverseDocumentFrequency(own, state.count) / most : 1;
    if (share <= best) continue;
    for (const alternative of slot.alternatives) {
      const term = state.terms.find(alternative.term);
      // The name count is the low 4 bits of the packed frequencies (see packFrequencies).
      if (term >= 0 && (packedIn(state, term, id) & 0xf) !== 0) {
        best = share;
        break;
      }
    }
  }
  return best;
}

/**
 * How much of a skill's own name (`name`, as indexed) the query leaves out: the share of the IDF weight of the name's
 * words that no query word matches, by itself or a stand-in (0..1; 1 for a name with no index word). A request that
 * says none of what the skill is called ("add a CNAME record in Cloudflare DNS" for `namecheap`) fits it less surely
 * than its score says, most of all when the name is a rare word such as a product.
 */
export function nameMissing(state: IndexState, slots: readonly QuerySlot[], name: string): number {
  const held = new Set<string>();
  for (const slot of slots) for (const alternative of slot.alternatives) held.add(alternative.term);
  let total = 0;
  let missing = 0;
  for (const term of new Set(tokenize(name))) {
    const weight = inverseDocumentFrequency(documentFrequency(state, term), state.count);
    total += weight;
    if (!held.has(term)) missing += weight;
  }
  return total > 0 ? missing / total : 1;
}
