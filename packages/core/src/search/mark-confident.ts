import type { SearchResult } from "./search-types.js";

/** When a ranked list may call a result a fit: its score clears `threshold` and leads every other match by `margin`. */
export interface ConfidenceRule {
  threshold: number;
  margin: number;
}

/**
 * Marks at most one result `confident`, the first, when its score is at least `rule.threshold` and at least `rule.margin`
 * above the score of every other candidate (`others` holds the best score among candidates not in `results`, e.g.
 * the first one cut by the limit). Two skills scoring about the same are a coin toss, not an answer, so neither is
 * confident; in a fused list (not sorted by score) whose best score is not first, the phrasings disagree: none is.
 */
export function markConfident(
  results: readonly Omit<SearchResult, "confident">[],
  rule: ConfidenceRule,
  others: number,
): SearchResult[] {
  let best = -1;
  let bestScore = Number.NEGATIVE_INFINITY;
  let runnerUp = others;
  results.forEach((result, i) => {
    if (result.score > bestScore) {
      runnerUp = Math.max(runnerUp, bestScore);
      bestScore = result.score;
      best = i;
    } else runnerUp = Math.max(runnerUp, result.score);
  });
  // Only the first result: a fused list whose best score is further down disagrees with itself.
  const confident = best === 0 && bestScore >= rule.threshold && bestScore - runnerUp >= rule.margin;
  return results.map((result, i) => ({ ...result, confident: confident && i === best }));
}
