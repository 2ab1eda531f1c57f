import type { SearchIndex } from "../search/search-index.js";

/**
 * A search index built the first time it is needed: loading thousands of skills does not pay for reading the stored
 * index or tokenising bodies unless something searches. Once built it is kept and updated incrementally by later
 * snapshots.
 */
export class LazySearchIndex {
  private index: SearchIndex | undefined;

  constructor(
    private readonly build: () => SearchIndex,
    prebuilt?: SearchIndex,
  ) {
    this.index = prebuilt;
  }

  /** The index if it has been built, else undefined (never builds). */
  get built(): SearchIndex | undefined {
    return this.index;
  }

  /** The index, built now if it was not yet. */
  get(): SearchIndex {
    return (this.index ??= this.build());
  }
}
