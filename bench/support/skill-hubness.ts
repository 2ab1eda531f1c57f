// How much of a hub each skill is: how often it leads random requests made of other skills' words. A request that
// uses a skill's words for another task (the off-topic requests `confident` gets wrong) may land on the skills that
// lead anything; this counts them from the corpus alone, with no query set (bench/search-confidence-features.ts
// tries it as evidence for the confidence model).
import { leaderEvidenceOf, type SearchIndex } from "../../packages/core/src/search/search-index.js";
import { confidenceOf } from "../../packages/core/src/search/confidence-model.js";
import { DEFAULT_CONFIDENCE_THRESHOLD } from "../../packages/core/src/search/search-index-options.js";

/** Per skill: how many random requests it led (by the margin), and how many of those the model in use marks confident. */
export interface SkillHubness {
  requests: number;
  leads: Map<string, number>;
  confident: Map<string, number>;
}

/** A small fixed-seed generator (the counts must not change from run to run). */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

/**
 * Ranks `requests` random requests of 2 to 7 words drawn from the skills' descriptions (each word as often as the
 * descriptions use it) and counts, per skill, the ones it leads by at least `margin` and the ones it leads confidently.
 */
export function skillHubness(
  index: SearchIndex,
  descriptions: readonly string[],
  options: { requests: number; margin: number },
): SkillHubness {
  const pool = descriptions.flatMap((text) =>
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length >= 3),
  );
  const random = seededRandom(12_345);
  const leads = new Map<string, number>();
  const confident = new Map<string, number>();
  for (let n = 0; n < options.requests; n++) {
    const length = 2 + Math.floor(random() * 6);
    const words = Array.from({ length }, () => pool[Math.floor(random() * pool.length)]!);
    const { leader, evidence } = leaderEvidenceOf(index, words.join(" "));
    if (leader === undefined || evidence.lead < options.margin) continue;
    leads.set(leader, (leads.get(leader) ?? 0) + 1);
    if (confidenceOf(evidence) >= DEFAULT_CONFIDENCE_THRESHOLD) confident.set(leader, (confident.get(leader) ?? 0) + 1);
  }
  return { requests: options.requests, leads, confident };
}

/** A skill's count as log(1 + count per 10 000 random requests): the feature's scale does not follow the sample size. */
export function hubFeature(counts: Map<string, number>, requests: number, skill: string | undefined): number {
  return skill === undefined ? 0 : Math.log1p(((counts.get(skill) ?? 0) * 10_000) / requests);
}
