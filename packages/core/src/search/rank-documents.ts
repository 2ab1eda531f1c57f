import { documentFrequency as frequencyOf, type IndexState } from "./index-state.js";
import type { QuerySlot } from "./query-slots.js";

/** BM25F parameters: per-field weight and length normalisation, and the shared saturation constant. */
export interface RankingParameters {
  /** Field weights, FIELDS order (name, description, headings, body). */
  weights: readonly number[];
  /** Length normalisation per field, FIELDS order (0 = none, 1 = full). */
  lengthNormalization: readonly number[];
  /** Term-frequency saturation (BM25's k1). */
  k1: number;
  /**
   * How many times its importance the unmatched part of a name in the query (see `nameTerms`) weighs in a document's
   * coverage: all of it for a document that never mentions the name, little for one naming it in its name or
   * description (1 = like any other word).
   */
  unmatchedNameWeight: number;
  /**
   * How much of the maximum IDF a query word written in another script (see `QuerySlot.otherScript`) that no document
   * matches, by itself or a stand-in, weighs in coverage (1 = like an unknown English word). Such a word says the
   * request is in a language the skills are not written in more than that it is about something else.
   */
  unknownOtherScriptWeight: number;
}

/** Inverse document frequency (BM25 form, never negative). */
export function inverseDocumentFrequency(documentFrequency: number, documentCount: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** A document (by id in the state) and its score in 0..1. */
export interface RankedDocument {
  id: number;
  score: number;
}

// Per-document accumulators of one synchronous ranking pass, indexed by document id and reused across passes: stale
// values are told apart by pass and slot marks, never cleared.
let passOf = new Int32Array(0);
let slotOf = new Int32Array(0);
let totalOf = new Float64Array(0);
let bestOf = new Float64Array(0);
let namesOf = new Float64Array(0);
let passCounter = 0;

function scratchFor(count: number): void {
  if (passOf.length >= count) return;
  const size = Math.max(count, passOf.length * 2);
  passOf = new Int32Array(size);
  slotOf = new Int32Array(size);
  totalOf = new Float64Array(size);
  bestOf = new Float64Array(size);
  namesOf = new Float64Array(size);
  passCounter = 0;
}

/**
 * Scores every document matching some slot. Each slot contributes its importance (IDF) times its best
 * alternative's saturated BM25F frequency (0..1); the sum is turned into a 0..1 score by `calibratedScore`, so a
 * document matching every query term strongly scores near 1 and unmatched query words pull the score down.
 */
export function rankDocuments(
  state: IndexState,
  slots: readonly QuerySlot[],
  parameters: RankingParameters,
  limit: number = Number.POSITIVE_INFINITY,
): RankedDocument[] {
  const count = state.count;
  if (count === 0 || slots.length === 0) return [];
  const averages = state.lengthSums.map((sum) => Math.max(sum / count, 1));
  const { weights, lengthNormalization, k1 } = parameters;
  const [w0, w1, w2, w3] = weights as [number, number, number, number];
  const [keep0, keep1, keep2, keep3] = lengthNormalization.map((b) => 1 - b) as [number, number, number, number];
  const [scale0, scale1, scale2, scale3] = lengthNormalization.map((b, f) => b / averages[f]!) as [
    number,
    number,
    number,
    number,
  ];
  scratchFor(count);
  if (passCounter >= 0x7ffffff0) {
    passOf.fill(0);
    slotOf.fill(0);
    passCounter = 0;
  }
  const { lengths, starts, postingDocs, postingPacked } = state;
  const pass = ++passCounter;
  const touched: number[] = [];
  let totalImportance = 0;
  let nameImportance = 0;
  for (const slot of slots) {
    const importance = slotImportance(state, slot, count, parameters.unknownOtherScriptWeight);
    totalImportance += importance;
    if (slot.name) nameImportance += importance;
    const mark = ++passCounter;
    const slotTouched: number[] = [];
    for (const alternative of slot.alternatives) {
      const term = state.terms.find(alternative.term);
      if (term < 0) continue;
      for (let at = starts[term]!, end = starts[term + 1]!; at < end; at++) {
        const id = postingDocs[at]!;
        const packed = postingPacked[at]!;
        // Unrolled over the four fields; the bit layout matches packFrequencies (4, 7, 7, 13 bits).
        const l = id * 4;
        const tfName = packed & 0xf;
        const tfDescription = (packed >>> 4) & 0x7f;
        const tfHeadings = (packed >>> 11) & 0x7f;
        const tfBody = packed >>> 18;
        let weighted = 0;
        if (tfName) weighted += (w0 * tfName) / (keep0 + scale0 * lengths[l]!);
        if (tfDescription) weighted += (w1 * tfDescription) / (keep1 + scale1 * lengths[l + 1]!);
        if (tfHeadings) weighted += (w2 * tfHeadings) / (keep2 + scale2 * lengths[l + 2]!);
        if (tfBody) weighted += (w3 * tfBody) / (keep3 + scale3 * lengths[l + 3]!);
        const value = (alternative.weight * weighted) / (k1 + weighted);
        if (slotOf[id] !== mark) {
          slotOf[id] = mark;
          bestOf[id] = value;
          slotTouched.push(id);
        } else if (value > bestOf[id]!) {
          bestOf[id] = value;
        }
      }
    }
    for (const id of slotTouched) {
      if (passOf[id] !== pass) {
        passOf[id] = pass;
        totalOf[id] = 0;
        namesOf[id] = 0;
        touched.push(id);
      }
      totalOf[id]! += importance * bestOf[id]!;
      // How much of the name the document matches: a name met once deep in the body is mostly still missing.
      if (slot.name) namesOf[id]! += importance * bestOf[id]!;
    }
  }
  // The part of a name the document does not match weighs more in its coverage: the request is about something else.
  const evidenceScale = inverseDocumentFrequency(0, count);
  const missedNameExtra = parameters.unmatchedNameWeight - 1;
  const scores: number[] = [];
  for (let i = 0; i < touched.length; i++) {
    const id = touched[i]!;
    const total = totalImportance + missedNameExtra * (nameImportance - namesOf[id]!);
    scores.push(calibratedScore(totalOf[id]!, total, evidenceScale));
  }
  // Only the best `limit` matter: find the limit-th best score with a sorted copy, then fully order those at or above it.
  let cutoff = Number.NEGATIVE_INFINITY;
  if (touched.length > limit) {
    const sorted = [...scores].sort((a, b) => a - b);
    cutoff = limit > 0 ? sorted[sorted.length - limit]! : Number.POSITIVE_INFINITY;
  }
  const ranked: Array<RankedDocument & { name: string }> = [];
  for (let i = 0; i < touched.length; i++) {
    if (scores[i]! < cutoff) continue;
    ranked.push({ id: touched[i]!, score: scores[i]!, name: state.docs.nameOf(touched[i]!) });
  }
  return ranked.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The reported score: the geometric mean of two things a real match has and an off-topic one lacks. *Coverage* is
 * the share of the query's importance the document matches (matched / total), which alone rewards short off-topic
 * queries that hit one common word; *evidence* is how much it matched in absolute terms, saturated at the IDF of a
 * term no document has (`scale`: one maximally specific word), which alone rewards long queries. Within one query
 * both grow with the matched importance, so the ranking is that of plain BM25F; only the scale across queries
 * changes, which is what the `confident` threshold reads (see docs/search.md).
 */
export function calibratedScore(matched: number, total: number, scale: number): number {
  if (total <= 0 || matched <= 0) return 0;
  return Math.sqrt((matched / total) * (matched / (matched + scale)));
}

/**
 * How much a slot matters: its term's IDF; for a word the index lacks, the best IDF among its stand-ins; for a word
 * nothing in the index stands in for, the maximum IDF (times `otherScriptWeight` for a word in another script).
 */
function slotImportance(state: IndexState, slot: QuerySlot, count: number, otherScriptWeight: number): number {
  const own = frequencyOf(state, slot.term);
  if (own > 0) return inverseDocumentFrequency(own, count);
  let best = -1;
  for (const alternative of slot.alternatives) {
    const frequency = frequencyOf(state, alternative.term);
    if (frequency > 0) best = Math.max(best, inverseDocumentFrequency(frequency, count));
  }
  return best >= 0 ? best : inverseDocumentFrequency(0, count) * (slot.otherScript ? otherScriptWeight : 1);
}
