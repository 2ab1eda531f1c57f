import type { SearchDocument } from "./search-types.js";
import { releaseTermSlots, termOfSlot, termSlotCount } from "./term-slots.js";
import { visitTerms } from "./tokenize.js";

/** Fields in scoring order: name, description, markdown headings, body. */
export const FIELDS = ["name", "description", "headings", "body"] as const;

/**
 * Version of what `analyzeDocument` produces (tokenizer, stemmer, fields, packing). Persisted analyses (registry
 * snapshots) carry it; bump it with any change that would make a stored analysis differ from a fresh one.
 */
export const SEARCH_INDEX_FORMAT_VERSION = 2;

/** Per-field term-frequency caps; they fit the four counts into one 31-bit integer (unrolled in `analyzeDocument`). */
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
  releaseTermSlots();
  if (documentMark >= 0x7fffffff) {
    markOfTerm.fill(0);
    documentMark = 0;
  }
  documentMark++;
  seenCount = 0;
  const lengths = [0, 0, 0, 0];
  const texts = [document.name, document.description, headings, document.body];
  for (currentField = 0; currentField < texts.length; currentField++) {
    const before = counted;
    visitTerms(texts[currentField]!, countTerm);
    lengths[currentField] = counted - before;
  }
  const terms = new Array<string>(seenCount);
  const packed = new Uint32Array(seenCount);
  for (let k = 0; k < seenCount; k++) {
    const slot = seenSlots[k]!;
    const at = slot * 4;
    terms[k] = termOfSlot(slot);
    packed[k] =
      Math.min(fieldCounts[at]!, 15) |
      (Math.min(fieldCounts[at + 1]!, 127) << 4) |
      (Math.min(fieldCounts[at + 2]!, 127) << 11) |
      (Math.min(fieldCounts[at + 3]!, 8191) << 18);
  }
  return {
    name: document.name,
    description: document.description,
    path: document.path,
    lengths,
    terms,
    packed,
  };
}

// State of the document being analyzed (analysis is synchronous), indexed by term slot: a term's counts are the current
// document's when its mark is the document's (marks only grow, so a slot the term table gave out again after a release
// carries an older mark); `seenSlots` lists the document's terms in order of first occurrence.
let documentMark = 0;
let markOfTerm = new Int32Array(1 << 16);
let fieldCounts = new Int32Array(4 << 16);
let seenSlots = new Int32Array(1 << 12);
let seenCount = 0;
let currentField = 0;
let counted = 0;

/** Counts one occurrence of a term (by its slot from `visitTerms`) in the current field. */
function countTerm(_term: string, slot: number): void {
  counted++;
  if (slot >= markOfTerm.length) {
    const size = Math.max(termSlotCount(), slot + 1) * 2;
    const marks = new Int32Array(size);
    marks.set(markOfTerm);
    markOfTerm = marks;
    const grown = new Int32Array(size * 4);
    grown.set(fieldCounts);
    fieldCounts = grown;
  }
  const at = slot * 4;
  if (markOfTerm[slot] !== documentMark) {
    markOfTerm[slot] = documentMark;
    fieldCounts[at] = fieldCounts[at + 1] = fieldCounts[at + 2] = fieldCounts[at + 3] = 0;
    if (seenCount === seenSlots.length) {
      const grown = new Int32Array(seenSlots.length * 2);
      grown.set(seenSlots);
      seenSlots = grown;
    }
    seenSlots[seenCount++] = slot;
  }
  fieldCounts[at + currentField]!++;
}
