// Plain version of core's search/index-state.ts ("postings"): posting lists are arrays of numbers, grouped by pushing
// into a Map per term, instead of one counted layout in typed arrays cut into Uint32Array slices. Same lists, same
// order; swapped in by swap-search-hooks.mjs for bench/search-postings.ts.
import { fieldFrequency, type IndexedDocument } from "../../../packages/core/src/search/indexed-document.js";
import { markPlainPart } from "./loaded-parts.js";

markPlainPart("postings");

/** The documents holding one term, with their packed field frequencies (parallel arrays). */
export interface PostingList {
  readonly docs: readonly IndexedDocument[];
  readonly packed: readonly number[];
}

/** Immutable term statistics of one index snapshot; updates build a new state sharing untouched lists. */
export interface IndexState {
  readonly docs: ReadonlyMap<string, IndexedDocument>;
  readonly postings: ReadonlyMap<string, PostingList>;
  readonly lengthSums: readonly number[];
  readonly headTerms: ReadonlyMap<string, number>;
}

/** A state with no documents. */
export const EMPTY_STATE: IndexState = {
  docs: new Map(),
  postings: new Map(),
  lengthSums: [0, 0, 0, 0],
  headTerms: new Map(),
};

function inHead(packed: number): boolean {
  return fieldFrequency(packed, 0) > 0 || fieldFrequency(packed, 1) > 0;
}

/** New postings per term, in document order (terms in order of first occurrence): one growing pair of arrays per term. */
function groupPostings(
  documents: readonly IndexedDocument[],
): Map<string, { docs: IndexedDocument[]; packed: number[] }> {
  const additions = new Map<string, { docs: IndexedDocument[]; packed: number[] }>();
  for (const document of documents) {
    const { terms, packed } = document;
    for (let i = 0; i < terms.length; i++) {
      let list = additions.get(terms[i]!);
      if (list === undefined) additions.set(terms[i]!, (list = { docs: [], packed: [] }));
      list.docs.push(document);
      list.packed.push(packed[i]!);
    }
  }
  return additions;
}

/** Applies removals and additions to a state, copying only the posting lists of touched terms. */
export function applyChanges(
  base: IndexState,
  removedNames: Iterable<string>,
  added: readonly IndexedDocument[],
): IndexState {
  const docs = new Map(base.docs);
  const removed = new Set<IndexedDocument>();
  const drop = (name: string): void => {
    const existing = docs.get(name);
    if (existing) {
      removed.add(existing);
      docs.delete(name);
    }
  };
  for (const name of removedNames) drop(name);
  const addedByName = new Map<string, IndexedDocument>();
  for (const document of added) addedByName.set(document.name, document);
  for (const name of addedByName.keys()) drop(name);

  const lengthSums = [...base.lengthSums];
  for (const document of removed) for (let f = 0; f < lengthSums.length; f++) lengthSums[f]! -= document.lengths[f]!;
  for (const document of addedByName.values()) {
    docs.set(document.name, document);
    for (let f = 0; f < lengthSums.length; f++) lengthSums[f]! += document.lengths[f]!;
  }
  const additions = groupPostings([...addedByName.values()]);

  const postings = new Map(base.postings);
  const headTerms = new Map(base.headTerms);
  for (const [term, extra] of additions) {
    if (base.postings.has(term)) continue;
    postings.set(term, extra);
    const head = extra.packed.filter(inHead).length;
    if (head > 0) headTerms.set(term, head);
  }
  const touched = new Set<string>();
  for (const term of additions.keys()) if (base.postings.has(term)) touched.add(term);
  for (const document of removed) for (const term of document.terms) touched.add(term);
  for (const term of touched) {
    const old = base.postings.get(term)!;
    const extra = additions.get(term);
    const next = { docs: [] as IndexedDocument[], packed: [] as number[] };
    for (let i = 0; i < old.docs.length; i++) {
      if (removed.has(old.docs[i]!)) continue;
      next.docs.push(old.docs[i]!);
      next.packed.push(old.packed[i]!);
    }
    if (extra) {
      for (let i = 0; i < extra.docs.length; i++) {
        next.docs.push(extra.docs[i]!);
        next.packed.push(extra.packed[i]!);
      }
    }
    if (next.docs.length === 0) postings.delete(term);
    else postings.set(term, next);
    const head = next.packed.filter(inHead).length;
    if (head > 0) headTerms.set(term, head);
    else headTerms.delete(term);
  }
  return { docs, postings, lengthSums, headTerms };
}
