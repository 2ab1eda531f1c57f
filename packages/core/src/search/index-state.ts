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

/** A posting list being filled, with how many of its postings are in a name or description. */
interface GrowingList {
  docs: IndexedDocument[];
  packed: Uint32Array;
  head: number;
}

function inHead(packed: number): boolean {
  return fieldFrequency(packed, 0) > 0 || fieldFrequency(packed, 1) > 0;
}

/** New postings per term, in document order (terms in order of first occurrence), with how many are in a head. */
function groupPostings(documents: readonly IndexedDocument[]): Map<string, PostingList & { head: number }> {
  const additions = new Map<string, PostingList & { head: number }>();
  const generation = termIdGeneration();
  if (documents.every((document) => document.termIds !== undefined && document.termGeneration === generation)) {
    // Every term has a current id: count the postings of each id, then fill lists of exactly that size, so the Map is
    // touched once per distinct term and nothing grows or is copied.
    const sizes = new Int32Array(termIdCount());
    for (const document of documents) {
      const ids = document.termIds!;
      for (let i = 0; i < ids.length; i++) sizes[ids[i]!]!++;
    }
    const lists: (GrowingList | undefined)[] = new Array<GrowingList | undefined>(sizes.length).fill(undefined);
    const filled = new Int32Array(sizes.length);
    for (const document of documents) {
      const { terms, packed } = document;
      const ids = document.termIds!;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        let list = lists[id];
        if (list === undefined) {
          list = lists[id] = {
            docs: new Array<IndexedDocument>(sizes[id]!),
            packed: new Uint32Array(sizes[id]!),
            head: 0,
          };
          additions.set(terms[i]!, list);
        }
        const value = packed[i]!;
        const at = filled[id]!++;
        list.docs[at] = document;
        list.packed[at] = value;
        if (inHead(value)) list.head++;
      }
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
