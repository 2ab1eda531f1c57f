/**
 * What `confident` reads of one phrasing's ranking for its first result (see docs/design/search-tuning.md, "The
 * calibrated confidence"): the leader's score, how far it leads the best other match, and whether the phrasing holds
 * a word no skill uses.
 */
export interface LeaderEvidence {
  /** The leader's score in this phrasing (0..1). */
  score: number;
  /** The leader's score minus the best other score in this phrasing, cut-off matches included (negative: not first). */
  lead: number;
  /** The phrasing holds a plain word of six letters or more that no skill uses (see `hasUnknownWord`). */
  unknownWord: boolean;
}

/**
 * Weights of the logistic model, fitted by `bench/search-confidence-fit.ts` on the development query sets only
 * (natural, A–D, E1–E5c), on the requests without a word no skill uses (those are never confident): log-odds that
 * the first result is right = bias + score·s + lead·l.
 */
export const CONFIDENCE_WEIGHTS = { bias: -4.01, score: 10.43, lead: 10.72 } as const;

/**
 * The model's probability (0..1) that the leader of a phrasing is the right skill, from its score and lead; 0 when
 * the phrasing holds a word no skill uses (such a word is usually what the request is about, and no skill has it).
 */
export function confidenceOf(evidence: LeaderEvidence): number {
  if (evidence.unknownWord) return 0;
  const w = CONFIDENCE_WEIGHTS;
  return 1 / (1 + Math.exp(-(w.bias + w.score * evidence.score + w.lead * evidence.lead)));
}
