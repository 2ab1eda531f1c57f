import type { SearchResult } from "./search-types.js";

/**
 * Marks at most one result `confident`: the first, when `confident` says the search found a clear fit (see
 * `leaderIsConfident`); every other result is not.
 */
export function markConfident(results: readonly Omit<SearchResult, "confident">[], confident: boolean): SearchResult[] {
  return results.map((result, i) => ({ ...result, confident: confident && i === 0 }));
}
