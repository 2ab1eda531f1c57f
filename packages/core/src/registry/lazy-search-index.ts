import { createSearchIndex, type SearchIndex } from "../search/search-index.js";
import type { SearchDocument } from "../search/search-types.js";

/**
 * A search index built the first time it is needed: loading thousands of skills does not pay for tokenising every
 * body unless something searches. Once built it is kept and updated incrementally by later snapshots.
 */
export class LazySearchIndex {
  private index: SearchIndex | undefined;

  constructor(
    private readonly documents: () => SearchDocument[],
    prebuilt?: SearchIndex,
  ) {
    this.index = prebuilt;
  }

  /** The index if it has been built, else undefined (never builds). */
  get built(): SearchIndex | undefined {
    return this.index;
  }

  /** The index, built now from every document if it was not yet. */
  get(): SearchIndex {
    return (this.index ??= createSearchIndex(this.documents()));
  }
}
