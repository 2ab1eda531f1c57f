import type { SearchResult } from "./search-types.js";

/** RRF's rank constant (the value of the original paper, Cormack et al. 2009), shared with the embeddings fusion. */
export const RRF_K = 60;

/** A ranked list of one phrasing, best first, with the lexical score of each entry. */
export type PhrasingRanking = ReadonlyArray<Omit<SearchResult, "confident">>;

/**
 * Fuses the rankings of several phrasings of one need by reciprocal rank fusion (each list contributes
 * 1 / (60 + rank) to a skill), best first, ties by name. A skill's `score` is its best score over the phrasings: the
 * phrasing that describes it best says how well it fits. Returns the fused list (all candidates, unsorted cut).
 */
export function fusePhrasings(rankings: readonly PhrasingRanking[]): Array<Omit<SearchResult, "confident">> {
  const fused = new Map<string, { result: Omit<SearchResult, "confident">; rrf: number }>();
  for (const ranking of rankings) {
    ranking.forEach((result, rank) => {
      const share = 1 / (RRF_K + rank + 1);
      const entry = fused.get(result.name);
      if (!entry) fused.set(result.name, { result: { ...result }, rrf: share });
      else {
        entry.rrf += share;
        if (result.score > entry.result.score) entry.result.score = result.score;
      }
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.rrf - a.rrf || (a.result.name < b.result.name ? -1 : a.result.name > b.result.name ? 1 : 0))
    .map((entry) => entry.result);
}

/**
 * The phrasings of a query: a string is one phrasing; an array keeps its non-blank entries in order, each once.
 * Returns undefined when `query` is neither (the caller throws its typed error).
 */
export function phrasingsOf(query: unknown): string[] | undefined {
  if (typeof query === "string") return [query];
  if (!Array.isArray(query) || !query.every((item) => typeof item === "string")) return undefined;
  return [...new Set((query as string[]).map((item) => item.trim()).filter((item) => item.length > 0))];
}
