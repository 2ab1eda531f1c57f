/**
 * What `confident` reads of one phrasing's ranking for its first result (see docs/design/search-tuning.md, "The
 * calibrated confidence"): the leader's score, how far it leads the best other match, whether its name holds a
 * specific query word, how much of its name the phrasing leaves out, and whether the phrasing holds a word no skill uses.
 */
export interface LeaderEvidence {
  /** The leader's score in this phrasing (0..1). */
  score: number;
  /** The leader's score minus the best other score in this phrasing, cut-off matches included (negative: not first). */
  lead: number;
  /** How specific the rarest query word in the leader's name is (0..1, see `nameMatch`; 0 when none is). */
  nameMatch: number;
  /** The share of the IDF weight of the leader's name words the phrasing does not match (0..1, see `nameMissing`). */
  nameMissing: number;
  /** The phrasing holds a plain word of six letters or more that no skill uses (see `hasUnknownWord`). */
  unknownWord: boolean;
}

/**
 * Weights of the logistic model, fitted by `bench/search-confidence-fit.ts` on the development query sets only
 * (natural, A–D, E1–E6c): log-odds that the first result is right =
 * bias + score·s + lead·l + nameMatch·n + nameMissing·m + unknownWord·u. The name's two weights act together: a request
 * that holds a skill's whole name (nameMissing 0) gains more than a rare name word (nameMatch) takes back.
 */
export const CONFIDENCE_WEIGHTS = {
  bias: -1.12,
  score: 8.67,
  lead: 10.4,
  nameMatch: -1.12,
  nameMissing: -2.66,
  unknownWord: -0.53,
} as const;

/** The model's probability (0..1) that the leader of a phrasing is the right skill, from its evidence. */
export function confidenceOf(evidence: LeaderEvidence): number {
  const w = CONFIDENCE_WEIGHTS;
  const logit =
    w.bias +
    w.score * evidence.score +
    w.lead * evidence.lead +
    w.nameMatch * evidence.nameMatch +
    w.nameMissing * evidence.nameMissing +
    (evidence.unknownWord ? w.unknownWord : 0);
  return 1 / (1 + Math.exp(-logit));
}
