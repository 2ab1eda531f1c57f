import { cosine } from "./embedding-cache.js";
import type { SemanticHit } from "./fuse-rankings.js";
import { fusePhrasings } from "./fuse-phrasings.js";

/** A skill with its embedding (undefined when the model has not given one). */
export interface EmbeddedSkill {
  name: string;
  path: string;
  description: string;
  vector: Float32Array | undefined;
}

/**
 * Ranks skills by cosine with each phrasing's vector (normalised vectors; a missing or mismatched vector scores -1)
 * and fuses the phrasings' rankings by reciprocal rank, keeping each skill's best cosine; the top `pool`, best first.
 */
export function semanticRanking(
  skills: readonly EmbeddedSkill[],
  queryVectors: readonly Float32Array[],
  pool: number,
): SemanticHit[] {
  const rankings = queryVectors.map((query) =>
    skills
      .map(({ name, path, description, vector }) => ({
        name,
        path,
        description,
        score: vector && vector.length === query.length ? cosine(vector, query) : -1,
      }))
      .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : 1))
      .slice(0, pool),
  );
  return fusePhrasings(rankings)
    .slice(0, pool)
    .map(({ score, ...hit }) => ({ ...hit, cosine: score }));
}
