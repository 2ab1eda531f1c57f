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
 * New postings per term, in document order (terms in order of first occurrence), with how many are in a head.
 * The build numbers the terms it meets (ids that live only as long as this call): it counts the postings of each id,
 * lays all lists out in one pair of arrays (each term's slice at an offset, in id order), fills them in document
 * order, then cuts them apart, so the Map is touched once per term and posting and no list grows.
 */
function groupPostings(documents: readonly IndexedDocument[]): Map<string, PostingList & { head: number }> {
  const idOfTerm = new Map<string, number>();
  const termOfId: string[] = [];
  let counts = new Int32Array(1024);
  const idsOfDocument = documents.map(({ terms }) => {
    const ids = new Int32Array(terms.length);
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      let id = idOfTerm.get(term);
      if (id === undefined) {
        id = termOfId.length;
        idOfTerm.set(term, id);
        termOfId.push(term);
        if (id === counts.length) {
          const grown = new Int32Array(counts.length * 2);
          grown.set(counts);
          counts = grown;
        }
      }
      counts[id]!++;
      ids[i] = id;
    }
    return ids;
  });
  // counts become each id's next free place in the shared arrays; starts keep where each slice begins.
  const starts = new Int32Array(termOfId.length + 1);
  let total = 0;
  for (let id = 0; id < termOfId.length; id++) {
    starts[id] = total;
    total += counts[id]!;
    counts[id] = starts[id]!;
  }
  starts[termOfId.length] = total;
  const allDocs = new Array<IndexedDocument>(total);
  const allPacked = new Uint32Array(total);
  documents.forEach((document, d) => {
    const { packed } = document;
    const ids = idsOfDocument[d]!;
    for (let i = 0; i < ids.length; i++) {
      const at = counts[ids[i]!]!++;
      allDocs[at] = document;
      allPacked[at] = packed[i]!;
    }
  });
  const additions = new Map<string, PostingList & { head: number }>();
  for (let id = 0; id < termOfId.length; id++) {
    const start = starts[id]!;
    const end = starts[id + 1]!;
    let head = 0;
    for (let at = start; at < end; at++) if (inHead(allPacked[at]!)) head++;
    additions.set(termOfId[id]!, { docs: allDocs.slice(start, end), packed: allPacked.slice(start, end), head });
  }
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
