import type { IndexedDocument } from "../search/indexed-document.js";
import { indexAnalyzedDocuments, type SearchIndex } from "../search/search-index.js";

/**
 * A search index built the first time it is needed: loading thousands of skills does not pay for tokenising every
 * body unless something searches (skills analyzed in the registry snapshot file are restored, not tokenised). Once built it is kept and updated incrementally by later snapshots.
 */
export class LazySearchIndex {
  private index: SearchIndex | undefined;

  constructor(
    private readonly documents: () => IndexedDocument[],
    prebuilt?: SearchIndex,
    private readonly onBuilt?: () => void,
  ) {
    this.index = prebuilt;
  }

  /** The index if it has been built, else undefined (never builds). */
  get built(): SearchIndex | undefined {
    return this.index;
  }

  /** The index, built now from every document if it was not yet. */
  get(): SearchIndex {
    if (this.index) return this.index;
    this.index = indexAnalyzedDocuments(undefined, { upsert: this.documents() });
    this.onBuilt?.();
    return this.index;
  }
}
