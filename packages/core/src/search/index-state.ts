import { FIELDS, type IndexedDocument } from "./indexed-document.js";
import { EMPTY_TERMS, TermTable } from "./term-table.js";

/** What a result shows of a document. */
export interface DocumentDetail {
  readonly name: string;
  readonly description: string;
  readonly path: string;
}

/** The documents of an index by id (0..count-1): names for ranking ties, the rest only for results (lazily). */
export interface DocumentTable {
  nameOf(id: number): string;
  detailOf(id: number): DocumentDetail;
}

/**
 * Immutable term statistics of one index snapshot, all in typed arrays used in place (a stored index is these arrays
 * read from the file): per-document field lengths, the vocabulary, and every term's posting list (document ids in
 * increasing order with their packed field frequencies) as one slice of two shared arrays.
 */
export interface IndexState {
  readonly count: number;
  readonly docs: DocumentTable;
  /** Token count per field, four per document (FIELDS order). */
  readonly lengths: Int32Array;
  /** Sum of field lengths over all documents (FIELDS order). */
  readonly lengthSums: readonly number[];
  readonly terms: TermTable;
  /** Term `t`'s postings are `[starts[t], starts[t + 1])` of `postingDocs` and `postingPacked`. */
  readonly starts: Int32Array;
  /** Document ids: 16-bit while every id fits (`DOCS_16_BIT`), else 32-bit. */
  readonly postingDocs: Int32Array | Uint16Array;
  readonly postingPacked: Uint32Array;
  /** Per term, how many documents have it in their name or description (typo matching looks only at those > 0). */
  readonly headCounts: Int32Array;
}

/** Up to this many documents, posting document ids are 16-bit (half the memory and half the stored bytes). */
export const DOCS_16_BIT = 0x10000;

/** Documents held in an array. */
export class ArrayDocuments implements DocumentTable {
  constructor(private readonly details: readonly DocumentDetail[]) {}
  nameOf(id: number): string {
    return this.details[id]!.name;
  }
  detailOf(id: number): DocumentDetail {
    return this.details[id]!;
  }
}

/** A state with no documents. */
export const EMPTY_STATE: IndexState = {
  count: 0,
  docs: new ArrayDocuments([]),
  lengths: new Int32Array(0),
  lengthSums: [0, 0, 0, 0],
  terms: EMPTY_TERMS,
  starts: new Int32Array(1),
  postingDocs: new Uint16Array(0),
  postingPacked: new Uint32Array(0),
  headCounts: new Int32Array(0),
};

/** How many documents hold `term` (0 when none). */
export function documentFrequency(state: IndexState, term: string): number {
  const id = state.terms.find(term);
  return id < 0 ? 0 : state.starts[id + 1]! - state.starts[id]!;
}

/** Whether some document holds `term`. */
export function hasTerm(state: IndexState, term: string): boolean {
  return state.terms.find(term) >= 0;
}

/** Whether a packed frequency counts in the name or description. */
export function inHead(packed: number): boolean {
  // The name (4 bits) and description (7 bits) counts are the low 11 bits (see packFrequencies).
  return (packed & 0x7ff) !== 0;
}

/** Sums of the field lengths of every document. */
export function sumLengths(lengths: Int32Array): number[] {
  const sums = [0, 0, 0, 0];
  for (let at = 0; at < lengths.length; at += FIELDS.length)
    for (let f = 0; f < FIELDS.length; f++) sums[f]! += lengths[at + f]!;
  return sums;
}

/**
 * Applies removals and additions to a state: a new state (the old one is untouched). `added` documents replace
 * same-named ones (the last of a name wins); `removed` names that are absent are ignored.
 */
export function applyChanges(
  base: IndexState,
  removedNames: Iterable<string>,
  added: readonly IndexedDocument[],
): IndexState {
  const addedByName = new Map<string, IndexedDocument>();
  for (const document of added) addedByName.set(document.name, document);
  const dead = new Uint8Array(base.count);
  const names = new Set([...removedNames, ...addedByName.keys()]);
  if (names.size > 0) for (let id = 0; id < base.count; id++) if (names.has(base.docs.nameOf(id))) dead[id] = 1;
  return rebuildState(base, dead, [...addedByName.values()]);
}

/** The terms of the added documents, numbered in order of first occurrence, with each one's postings. */
function groupAdded(added: readonly IndexedDocument[], firstId: number) {
  const idOfTerm = new Map<string, number>();
  const lists: Array<{ term: string; docs: number[]; packed: number[] }> = [];
  added.forEach((document, d) => {
    for (let i = 0; i < document.terms.length; i++) {
      const term = document.terms[i]!;
      let id = idOfTerm.get(term);
      if (id === undefined) {
        id = lists.length;
        idOfTerm.set(term, id);
        lists.push({ term, docs: [], packed: [] });
      }
      lists[id]!.docs.push(firstId + d);
      lists[id]!.packed.push(document.packed[i]!);
    }
  });
  return lists;
}

/**
 * A new state: `base` without its documents marked in `dead` (the others keep their order, renumbered), then `added`
 * (distinct names, none left in `base`). Terms left with no document go; the vocabulary stays in code-unit order and
 * every posting list in increasing document order (survivors first, then the added documents).
 */
export function rebuildState(base: IndexState, dead: Uint8Array, added: readonly IndexedDocument[]): IndexState {
  const newId = new Int32Array(base.count);
  const details: DocumentDetail[] = [];
  let survivors = 0;
  for (let id = 0; id < base.count; id++) {
    if (dead[id]) newId[id] = -1;
    else {
      newId[id] = survivors++;
      details.push(base.docs.detailOf(id));
    }
  }
  const count = survivors + added.length;
  const lengths = new Int32Array(count * FIELDS.length);
  for (let id = 0; id < base.count; id++)
    if (newId[id]! >= 0) lengths.set(base.lengths.subarray(id * 4, id * 4 + 4), newId[id]! * 4);
  added.forEach((document, d) => {
    lengths.set(document.lengths, (survivors + d) * 4);
    details.push({ name: document.name, description: document.description, path: document.path });
  });
  // Added postings by term; those of terms the base has are merged into its lists, the others are new terms.
  const groups = groupAdded(added, survivors);
  const extraOfBase = new Map<number, (typeof groups)[number]>();
  const fresh: typeof groups = [];
  for (const group of groups) {
    const id = base.terms.find(group.term);
    if (id >= 0) extraOfBase.set(id, group);
    else fresh.push(group);
  }
  fresh.sort((a, b) => (a.term < b.term ? -1 : 1));
  // Merge the base vocabulary (sorted) with the new terms (sorted), leaving out terms with no document left. The
  // arrays are sized for every posting kept or added, filled in place, then cut to what was filled.
  let room = base.postingDocs.length;
  for (const group of groups) room += group.docs.length;
  const docs = count <= DOCS_16_BIT ? new Uint16Array(room) : new Int32Array(room);
  const packed = new Uint32Array(room);
  const terms: string[] = [];
  const starts = new Int32Array(base.terms.size + fresh.length + 1);
  const heads = new Int32Array(base.terms.size + fresh.length);
  let filled = 0;
  const push = (term: string, baseId: number, extra: (typeof groups)[number] | undefined) => {
    const before = filled;
    let head = 0;
    if (baseId >= 0) {
      for (let at = base.starts[baseId]!; at < base.starts[baseId + 1]!; at++) {
        const id = newId[base.postingDocs[at]!]!;
        if (id < 0) continue;
        docs[filled] = id;
        packed[filled++] = base.postingPacked[at]!;
        if (inHead(base.postingPacked[at]!)) head++;
      }
    }
    if (extra) {
      for (let k = 0; k < extra.docs.length; k++) {
        docs[filled] = extra.docs[k]!;
        packed[filled++] = extra.packed[k]!;
        if (inHead(extra.packed[k]!)) head++;
      }
    }
    if (filled === before) return;
    heads[terms.length] = head;
    terms.push(term);
    starts[terms.length] = filled;
  };
  let next = 0;
  for (let id = 0; id < base.terms.size; id++) {
    const term = base.terms.termAt(id);
    while (next < fresh.length && fresh[next]!.term < term) push(fresh[next]!.term, -1, fresh[next++]);
    push(term, id, extraOfBase.get(id));
  }
  while (next < fresh.length) push(fresh[next]!.term, -1, fresh[next++]);
  return {
    count,
    docs: new ArrayDocuments(details),
    lengths,
    lengthSums: sumLengths(lengths),
    terms: TermTable.fromSorted(terms),
    starts: starts.slice(0, terms.length + 1),
    postingDocs: docs.slice(0, filled),
    postingPacked: packed.slice(0, filled),
    headCounts: heads.slice(0, terms.length),
  };
}
