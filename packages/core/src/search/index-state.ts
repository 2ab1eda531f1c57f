import { fieldFrequency, type IndexedDocument } from "./indexed-document.js";

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

  const additions = new Map<string, { docs: IndexedDocument[]; packed: number[] }>();
  const lengthSums = [...base.lengthSums];
  for (const document of removed) document.lengths.forEach((length, f) => (lengthSums[f]! -= length));
  for (const document of addedByName.values()) {
    docs.set(document.name, document);
    document.lengths.forEach((length, f) => (lengthSums[f]! += length));
    document.terms.forEach((term, i) => {
      let list = additions.get(term);
      if (!list) additions.set(term, (list = { docs: [], packed: [] }));
      list.docs.push(document);
      list.packed.push(document.packed[i]!);
    });
  }

  const touched = new Set<string>(additions.keys());
  for (const document of removed) for (const term of document.terms) touched.add(term);
  const postings = new Map(base.postings);
  const headTerms = new Map(base.headTerms);
  for (const term of touched) {
    const old = base.postings.get(term);
    const extra = additions.get(term);
    if (!old && extra) {
      // A term new to the index (every term of a first build): its additions are the whole list.
      postings.set(term, { docs: extra.docs, packed: Uint32Array.from(extra.packed) });
      let head = 0;
      for (const packed of extra.packed) if (inHead(packed)) head++;
      if (head > 0) headTerms.set(term, head);
      continue;
    }
    const next = { docs: [] as IndexedDocument[], packed: [] as number[] };
    if (old) {
      for (let i = 0; i < old.docs.length; i++) {
        if (removed.has(old.docs[i]!)) continue;
        next.docs.push(old.docs[i]!);
        next.packed.push(old.packed[i]!);
      }
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
