import { confidenceOf, type LeaderEvidence } from "./confidence-model.js";
import type { PhrasingRanking } from "./fuse-phrasings.js";

/** When a search may call its first result a fit: the model's probability and a minimum lead over every other match. */
export interface ConfidenceRule {
  /** Least probability (0..1, `confidenceOf`) that the first result is right. */
  threshold: number;
  /** Least lead, in score, over every other match. */
  margin: number;
}

/** One phrasing's ranking (every candidate it scored, best first) and what `confident` reads of it. */
export interface JudgedPhrasing {
  ranking: PhrasingRanking;
  /** The phrasing holds a word no skill uses (see `hasUnknownWord`). */
  unknownWord: boolean;
  /** How specific the rarest of its words is that a skill (by name) holds in its name (see `nameMatch`). */
  nameMatchOf(name: string): number;
  /** How much of a skill's name (by name) the phrasing leaves out (see `nameMissing`). */
  nameMissingOf(name: string): number;
}

/** How many phrasings must each find the leader a clear fit on their own when a search has several. */
const AGREEING_PHRASINGS = 2;

/** What one phrasing says of `leader`: its score and lead there, its name match and miss, the phrasing's unknown word. */
export function evidenceFor(phrasing: JudgedPhrasing, leader: string): LeaderEvidence {
  let score = 0;
  let other = 0;
  for (const result of phrasing.ranking) {
    if (result.name === leader) score = result.score;
    else if (result.score > other) other = result.score;
  }
  return {
    score,
    lead: score - other,
    nameMatch: phrasing.nameMatchOf(leader),
    nameMissing: phrasing.nameMissingOf(leader),
    unknownWord: phrasing.unknownWord,
  };
}

/** Whether one phrasing's evidence makes its leader a clear fit under `rule`. */
export function clearFit(evidence: LeaderEvidence, rule: ConfidenceRule): boolean {
  return evidence.score > 0 && evidence.lead >= rule.margin && confidenceOf(evidence) >= rule.threshold;
}

/**
 * Whether the first result of a search over `phrasings` (the request as written first, then any rewrites) is
 * `confident`. One phrasing: the calibrated model says so (`clearFit`). Several, fused into `fused` (every candidate):
 * the leader must also hold the best score of the fused list (otherwise the phrasings disagree), no rewrite may hold
 * a word no skill uses (the request as written is in the user's words, not an author's), and at least two phrasings
 * must each find it a clear fit on their own: one generic rewrite ("DNS record setup") can match a skill that the
 * rest of the need does not fit.
 */
export function leaderIsConfident(
  phrasings: readonly JudgedPhrasing[],
  fused: PhrasingRanking,
  rule: ConfidenceRule,
): boolean {
  const leader = fused[0];
  if (leader === undefined || phrasings.length === 0) return false;
  if (phrasings.length === 1) return clearFit(evidenceFor(phrasings[0]!, leader.name), rule);
  if (fused.some((result) => result.score > leader.score)) return false;
  if (phrasings.slice(1).some(({ unknownWord }) => unknownWord)) return false;
  const agreeing = phrasings.filter((phrasing) => clearFit(evidenceFor(phrasing, leader.name), rule)).length;
  return agreeing >= AGREEING_PHRASINGS;
}
