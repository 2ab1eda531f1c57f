import type { SearchDocument } from "./search-types.js";
import { tokenize } from "./tokenize.js";

/** Fields in scoring order: name, description, markdown headings, body. */
export const FIELDS = ["name", "description", "headings", "body"] as const;

/**
 * Version of what `analyzeDocument` produces (tokenizer, stemmer, fields, packing). Persisted analyses (registry
 * snapshots) carry it; bump it with any change that would make a stored analysis differ from a fresh one.
 */
export const SEARCH_INDEX_FORMAT_VERSION = 1;

/** Per-field term-frequency caps; they fit the four counts into one 31-bit integer. */
const BITS = [4, 7, 7, 13] as const;
const SHIFTS = [0, 4, 11, 18] as const;

/** What the index keeps of a document: display fields and term statistics, never the body text. */
export interface IndexedDocument {
  readonly name: string;
  readonly description: string;
  readonly path: string;
  /** Token count per field (FIELDS order). */
  readonly lengths: readonly number[];
  /** Distinct terms, parallel to `packed`. */
  readonly terms: readonly string[];
  /** Per-term field frequencies packed by `packFrequencies`. */
  readonly packed: Uint32Array;
  /** Scratch space for one synchronous ranking pass (see rank-documents.ts); never part of the document's meaning. */
  readonly scratch: RankingScratch;
}

/** Per-document accumulators reused by ranking; stale values are detected by pass/slot marks, not cleared. */
export interface RankingScratch {
  pass: number;
  total: number;
  slot: number;
  best: number;
  /** Importance of the query's name slots this document matches. */
  names: number;
}

/** Packs four per-field counts (capped) into one small integer. */
export function packFrequencies(counts: readonly number[]): number {
  let packed = 0;
  for (let f = 0; f < BITS.length; f++) packed |= Math.min(counts[f]!, (1 << BITS[f]!) - 1) << SHIFTS[f]!;
  return packed;
}

/** The count of field `field` from a packed value. */
export function fieldFrequency(packed: number, field: number): number {
  return (packed >>> SHIFTS[field]!) & ((1 << BITS[field]!) - 1);
}

const HEADING = /^#{1,6}[ \t]+(.+)$/gm;

/**
 * Tokenizes a document once into per-field term counts; the body string is not retained.
 * @example analyzeDocument({ name: "git-commit", description: "Commit changes", body: "# Usage", path: "" }).terms
 */
export function analyzeDocument(document: SearchDocument): IndexedDocument {
  const headings = [...document.body.matchAll(HEADING)].map((match) => match[1]).join("\n");
  const fieldTokens = [
    tokenize(document.name),
    tokenize(document.description),
    tokenize(headings),
    tokenize(document.body),
  ];
  const counts = new Map<string, number[]>();
  fieldTokens.forEach((tokens, field) => {
    for (const token of tokens) {
      let row = counts.get(token);
      if (!row) counts.set(token, (row = [0, 0, 0, 0]));
      row[field]!++;
    }
  });
  const terms = [...counts.keys()];
  return {
    name: document.name,
    description: document.description,
    path: document.path,
    lengths: fieldTokens.map((tokens) => tokens.length),
    terms,
    packed: Uint32Array.from(terms, (term) => packFrequencies(counts.get(term)!)),
    scratch: { pass: 0, total: 0, slot: 0, best: 0, names: 0 },
  };
}
