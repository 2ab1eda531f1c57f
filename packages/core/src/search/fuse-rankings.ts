import { RRF_K } from "./fuse-phrasings.js";
import type { SearchResult } from "./search-types.js";

/** A skill's semantic match: cosine of its vector with the query's. */
export interface SemanticHit {
  name: string;
  path: string;
  description: string;
  cosine: number;
}

/**
 * Fuses the lexical ranking with the semantic one by reciprocal rank fusion (each list contributes 1 / (60 + rank)),
 * which needs no common score scale. The reported `score` and `confident` stay the lexical ones (the calibrated
 * scale `confident` is defined on); a skill found only semantically scores 0 and is not confident. A confident
 * lexical first result stays first: `confident` promises a clear fit, which a weaker embedding model cannot outvote.
 */
export function fuseRankings(
  lexical: readonly SearchResult[],
  semantic: readonly SemanticHit[],
  limit: number,
): SearchResult[] {
  const fused = new Map<string, { result: SearchResult; rrf: number }>();
  lexical.forEach((result, rank) => fused.set(result.name, { result, rrf: 1 / (RRF_K + rank + 1) }));
  semantic.forEach((hit, rank) => {
    const entry = fused.get(hit.name);
    const share = 1 / (RRF_K + rank + 1);
    if (entry) entry.rrf += share;
    else
      fused.set(hit.name, {
        result: { name: hit.name, score: 0, path: hit.path, description: hit.description, confident: false },
        rrf: share,
      });
  });
  const leader = lexical[0]?.confident ? fused.get(lexical[0].name) : undefined;
  if (leader) leader.rrf = Number.POSITIVE_INFINITY;
  return [...fused.values()]
    .sort((a, b) => b.rrf - a.rrf || (a.result.name < b.result.name ? -1 : a.result.name > b.result.name ? 1 : 0))
    .slice(0, limit)
    .map((entry) => entry.result);
}
