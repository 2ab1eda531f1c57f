// Plain version of core's analyzeDocument ("frequencies"): a document's field counts are kept in a Map from term to
// four numbers and its packed frequencies in an array of numbers, instead of slot-indexed Int32Array scratch tables
// and a Uint32Array. Same terms, same order (first occurrence), same values; swapped in by swap-search-hooks.mjs for
// bench/search-postings.ts. Everything else is core's module.
import { packFrequencies } from "../../../packages/core/src/search/indexed-document.js";
import type { SearchDocument } from "../../../packages/core/src/search/search-types.js";
import { releaseTermSlots } from "../../../packages/core/src/search/term-slots.js";
import { visitTerms } from "../../../packages/core/src/search/tokenize.js";
import { markPlainPart } from "./loaded-parts.js";

export * from "../../../packages/core/src/search/indexed-document.js";

markPlainPart("frequencies");

/** What the index keeps of a document (packed frequencies as plain numbers). */
export interface IndexedDocument {
  readonly name: string;
  readonly description: string;
  readonly path: string;
  readonly lengths: readonly number[];
  readonly terms: readonly string[];
  readonly packed: readonly number[];
}

const HEADING = /^#{1,6}[ \t]+(.+)$/gm;

/** Tokenizes a document once into per-field term counts, counted in a Map (terms in order of first sight). */
export function analyzeDocument(document: SearchDocument): IndexedDocument {
  const headings = [...document.body.matchAll(HEADING)].map((match) => match[1]).join("\n");
  releaseTermSlots();
  const counts = new Map<string, number[]>();
  const lengths = [0, 0, 0, 0];
  const texts = [document.name, document.description, headings, document.body];
  for (let field = 0; field < texts.length; field++) {
    visitTerms(texts[field]!, (term) => {
      lengths[field]!++;
      let perField = counts.get(term);
      if (perField === undefined) counts.set(term, (perField = [0, 0, 0, 0]));
      perField[field]!++;
    });
  }
  const terms = [...counts.keys()];
  const packed = [...counts.values()].map(packFrequencies);
  return {
    name: document.name,
    description: document.description,
    path: document.path,
    lengths,
    terms,
    packed,
  };
}
