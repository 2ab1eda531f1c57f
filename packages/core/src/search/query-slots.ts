import { editDistance } from "./edit-distance.js";
import { hasTerm, type IndexState } from "./index-state.js";
import type { SynonymMap } from "./synonym-map.js";
import { nameTerms } from "./query-names.js";
import { tokenize } from "./tokenize.js";

/** One way a query term can match: an index term and how much a match counts (1 for the term itself). */
export interface TermAlternative {
  term: string;
  weight: number;
}

/** One query term and the index terms that may stand in for it. */
export interface QuerySlot {
  term: string;
  alternatives: TermAlternative[];
  /** The term comes from a name in the query (see `nameTerms`): a document not matching it is penalised. */
  name: boolean;
  /** The term has letters outside basic Latin (CJK pairs, "años", "eröffne"): often a language the skills lack. */
  otherScript: boolean;
}

/** Any character outside 7-bit ASCII. */
const OTHER_SCRIPT = /[^\u0000-\u007f]/;

/** Weights of the ways a query term can be matched. */
export interface ExpansionWeights {
  /** A word from the same related-concept group. */
  synonym: number;
  /** A word naming the same thing (abbreviation, spelling, format and program). */
  equivalent: number;
  /** A name/description word one or two edits away (typos, product-name spellings). */
  fuzzy: number;
}

/** Edits allowed for a word of this length: none under 6 letters, 1 up to 8, 2 beyond. */
function allowedEdits(length: number): number {
  return length < 6 ? 0 : length < 9 ? 1 : 2;
}

function fuzzyMatches(term: string, state: IndexState): TermAlternative[] {
  const max = allowedEdits(term.length);
  if (max === 0 || !/^[a-z]+$/.test(term)) return [];
  const found: TermAlternative[] = [];
  const { headCounts, terms } = state;
  for (let id = 0; id < headCounts.length; id++) {
    if (headCounts[id] === 0) continue;
    const length = terms.offsets[id + 1]! - terms.offsets[id]!;
    if (Math.abs(length - term.length) > max || length < 4) continue;
    const candidate = terms.termAt(id);
    const distance = editDistance(term, candidate, max);
    if (distance <= max) found.push({ term: candidate, weight: 1 - distance / (max + 2) });
  }
  return found.sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1)).slice(0, 3);
}

/**
 * Turns a query into slots: each distinct term with its synonyms and, when the term is unknown to the index,
 * near spellings from skill names and descriptions.
 */
export function buildQuerySlots(
  query: string,
  state: IndexState,
  synonyms: SynonymMap,
  weights: ExpansionWeights,
): QuerySlot[] {
  const slots: QuerySlot[] = [];
  const seen = new Set<string>();
  const names = nameTerms(query);
  for (const term of tokenize(query, { keepCompounds: true })) {
    if (seen.has(term)) continue;
    seen.add(term);
    const alternatives: TermAlternative[] = [{ term, weight: 1 }];
    const known = hasTerm(state, term);
    const spellings = known ? [] : fuzzyMatches(term, state);
    for (const spelling of spellings)
      alternatives.push({ term: spelling.term, weight: weights.fuzzy * spelling.weight });
    for (const source of [term, ...spellings.map((spelling) => spelling.term)]) {
      for (const synonym of synonyms.get(source) ?? []) {
        const weight = synonym.equivalent ? weights.equivalent : weights.synonym;
        const existing = alternatives.find((alternative) => alternative.term === synonym.term);
        if (!existing) alternatives.push({ term: synonym.term, weight });
        else if (existing.weight < weight) existing.weight = weight;
      }
    }
    slots.push({ term, alternatives, name: names.has(term), otherScript: OTHER_SCRIPT.test(term) });
  }
  return slots;
}
