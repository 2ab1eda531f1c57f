// Search-quality figures for one labelled query set: top-1 / top-5 over the real queries, and the abstention AUC
// (how well the top score tells a real request from an off-topic one: 1 = always higher, 0.5 = chance).
import type { SearchOptions, SearchResult } from "../../packages/core/src/search/search-types.js";

/** Anything that searches: a SearchIndex, a registry or a view. */
export interface Searchable {
  search(query: string, options?: SearchOptions): SearchResult[];
}

/** A labelled query: `expected` holds the acceptable skill folders (empty = off-topic, nothing should fit). */
export interface LabelledQuery {
  query: string;
  expected: string[];
}

/** Figures of one query set. */
export interface SearchFigures {
  real: number;
  offTopic: number;
  top1: number;
  top5: number;
  auc: number;
  /** Real queries marked confident / off-topic queries marked confident. */
  realConfident: number;
  /** Real queries whose first result is confident and wrong. */
  realConfidentWrong: number;
  offTopicConfident: number;
}

/** Evaluates `queries` on `index`; `folderOf` maps a result path to the folder naming used by the query set. */
export function evaluateSearch(
  index: Searchable,
  queries: readonly LabelledQuery[],
  folderOf: (path: string) => string | undefined,
): SearchFigures & { misses: string[] } {
  let top1 = 0;
  let top5 = 0;
  let realConfident = 0;
  let realConfidentWrong = 0;
  let offTopicConfident = 0;
  const realScores: number[] = [];
  const offScores: number[] = [];
  const misses: string[] = [];
  for (const item of queries) {
    const results = index.search(item.query, { limit: 5 });
    const best = results[0]?.score ?? 0;
    if (item.expected.length === 0) {
      offScores.push(best);
      if (results[0]?.confident) offTopicConfident++;
      continue;
    }
    realScores.push(best);
    if (results[0]?.confident) realConfident++;
    const rank = results.findIndex((result) => item.expected.includes(folderOf(result.path) ?? ""));
    if (rank === 0) top1++;
    else if (results[0]?.confident) realConfidentWrong++;
    if (rank >= 0) top5++;
    else misses.push(item.query);
  }
  let wins = 0;
  for (const real of realScores) for (const off of offScores) wins += real > off ? 1 : real === off ? 0.5 : 0;
  const pairs = realScores.length * offScores.length;
  return {
    real: realScores.length,
    offTopic: offScores.length,
    top1: top1 / realScores.length,
    top5: top5 / realScores.length,
    auc: pairs === 0 ? Number.NaN : wins / pairs,
    realConfident: realConfident / realScores.length,
    realConfidentWrong: realConfidentWrong / realScores.length,
    offTopicConfident: offTopicConfident / Math.max(1, offScores.length),
    misses,
  };
}
