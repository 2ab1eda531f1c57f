/**
 * What `confident` reads of one phrasing's ranking for its first result (see docs/design/search-tuning.md, "The
 * calibrated confidence"): the leader's score, how far it leads the best other match, whether its name holds a
 * specific query word, and whether the phrasing holds a word no skill uses.
 */
export interface LeaderEvidence {
  /** The leader's score in this phrasing (0..1). */
  score: number;
  /** The leader's score minus the best other score in this phrasing, cut-off matches included (negative: not first). */
  lead: number;
  /** How specific the rarest query word in the leader's name is (0..1, see `nameMatch`; 0 when none is). */
  nameMatch: number;
  /** The phrasing holds a plain word of six letters or more that no skill uses (see `hasUnknownWord`). */
  unknownWord: boolean;
}

/**
 * Weights of the logistic model, fitted by `bench/search-confidence-fit.ts` on the development query sets only
 * (natural, A–D, E1–E5c): log-odds that the first result is right =
 * bias + score·s + lead·l + nameMatch·n + unknownWord·u.
 */
export const CONFIDENCE_WEIGHTS = {
  bias: -3.83,
  score: 9.31,
  lead: 9.67,
  nameMatch: 1.36,
  unknownWord: -0.68,
} as const;

/** The model's probability (0..1) that the leader of a phrasing is the right skill, from its evidence. */
export function confidenceOf(evidence: LeaderEvidence): number {
  const w = CONFIDENCE_WEIGHTS;
  const logit =
    w.bias +
    w.score * evidence.score +
    w.lead * evidence.lead +
    w.nameMatch * evidence.nameMatch +
    (evidence.unknownWord ? w.unknownWord : 0);
  return 1 / (1 + Math.exp(-logit));
}
