import { fieldFrequency, type IndexedDocument } from "./indexed-document.js";
import { termIdCount, termIdGeneration } from "./term-ids.js";

/** The documents holding one term, with their packed field frequencies (parallel arrays). */
export interface PostingList {
  readonly docs: readonly IndexedDocument[];
  readonly packed: Uint32Array;
}

/** Immutable term statistics of one index snapshot; updates build a new state sharing untouched lists. */
export interface IndexState {
  readonly docs: ReadonlyMap<string, IndexedDocument>;
  readonly postings: ReadonlyMap<string, PostingList>;
  /** Sum of field lengths over all documents (FIELDS order). */
  readonly lengthSums: readonly number[];
  /** Terms occurring in some name or description, with how many documents: the vocabulary typo matching looks in. */
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

/** New postings per term, in document order (terms in order of first occurrence), with how many are in a head. */
function groupPostings(documents: readonly IndexedDocument[]): Map<string, PostingList & { head: number }> {
  const additions = new Map<string, PostingList & { head: number }>();
  const generation = termIdGeneration();
  if (documents.every((document) => document.termIds !== undefined && document.termGeneration === generation)) {
    // Every term has a current id: count the postings of each id, lay all lists out in one pair of arrays (each
    // term's slice at an offset), fill them in document order, then cut them apart; the Map is touched once per term.
    const count = termIdCount();
    const cursor = new Int32Array(count);
    for (const document of documents) {
      const ids = document.termIds!;
      for (let i = 0; i < ids.length; i++) cursor[ids[i]!]!++;
    }
    const order: number[] = [];
    const firstTerm: string[] = [];
    let total = 0;
    for (const document of documents) {
      const { terms } = document;
      const ids = document.termIds!;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        const size = cursor[id]!;
        if (size <= 0) continue;
        // First sight of this term: reserve its slice; the cursor becomes -(offset + 1) until filling starts.
        order.push(id);
        firstTerm.push(terms[i]!);
        cursor[id] = -(total + 1);
        total += size;
      }
    }
    const starts = new Int32Array(order.length + 1);
    for (let k = 0; k < order.length; k++) {
      const id = order[k]!;
      starts[k] = -cursor[id]! - 1;
      cursor[id] = starts[k]!;
    }
    starts[order.length] = total;
    const allDocs = new Array<IndexedDocument>(total);
    const allPacked = new Uint32Array(total);
    for (const document of documents) {
      const { packed } = document;
      const ids = document.termIds!;
      for (let i = 0; i < ids.length; i++) {
        const at = cursor[ids[i]!]!++;
        allDocs[at] = document;
        allPacked[at] = packed[i]!;
      }
    }
    for (let k = 0; k < order.length; k++) {
      const start = starts[k]!;
      const end = starts[k + 1]!;
      let head = 0;
      for (let at = start; at < end; at++) if (inHead(allPacked[at]!)) head++;
      additions.set(firstTerm[k]!, { docs: allDocs.slice(start, end), packed: allPacked.slice(start, end), head });
    }
    return additions;
  }
  const growing = new Map<string, { docs: IndexedDocument[]; packed: number[]; head: number }>();
  for (const document of documents) {
    const { terms, packed } = document;
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      let list = growing.get(term);
      if (list === undefined) growing.set(term, (list = { docs: [], packed: [], head: 0 }));
      const value = packed[i]!;
      list.docs.push(document);
      list.packed.push(value);
      if (inHead(value)) list.head++;
    }
  }
  for (const [term, list] of growing) additions.set(term, { ...list, packed: Uint32Array.from(list.packed) });
  return additions;
}

/**
 * Applies removals and additions to a state, copying only the posting lists of touched terms.
 * `added` documents replace same-named ones; `removed` names that are absent are ignored.
 */
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
  // Terms new to the index (every term of a first build): their additions are the whole list.
  for (const [term, extra] of additions) {
    if (base.postings.has(term)) continue;
    postings.set(term, { docs: extra.docs, packed: extra.packed });
    if (extra.head > 0) headTerms.set(term, extra.head);
  }
  // Terms the index had that lose or gain documents: their lists are copied without the removed documents.
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
    else postings.set(term, { docs: next.docs, packed: Uint32Array.from(next.packed) });
    const head = next.packed.filter(inHead).length;
    if (head > 0) headTerms.set(term, head);
    else headTerms.delete(term);
  }
  return { docs, postings, lengthSums, headTerms };
}
