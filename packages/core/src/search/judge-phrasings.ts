import type { ConfidenceRule } from "./mark-confident.js";
import type { PhrasingRanking } from "./fuse-phrasings.js";

/** One phrasing's ranking and whether it holds a word no skill uses (see `hasUnknownWord`). */
export interface JudgedPhrasing {
  ranking: PhrasingRanking;
  unknownWord: boolean;
}

/** A rule no score meets. */
const NEVER_CONFIDENT: ConfidenceRule = { threshold: Number.POSITIVE_INFINITY, margin: 0 };

/** How many phrasings must each score the leader over the threshold before it may be confident. */
const AGREEING_PHRASINGS = 2;

/**
 * The confidence rule for one search over `phrasings` (the request as written first, then any rewrites) whose fused
 * first result is `leader`: `rule` itself, or a rule no result meets when
 * - a judged phrasing holds a word no skill uses (with rewrites only the rewrites are judged: the request as written
 *   is in the user's words, not an author's), or
 * - with several phrasings, fewer than two of them score the leader over the threshold on their own: one generic
 *   rewrite ("DNS record setup") can match a skill that the rest of the need does not fit.
 */
export function confidenceRuleFor(
  phrasings: readonly JudgedPhrasing[],
  leader: string | undefined,
  rule: ConfidenceRule,
): ConfidenceRule {
  const judged = phrasings.length === 1 ? phrasings : phrasings.slice(1);
  if (judged.some(({ unknownWord }) => unknownWord)) return NEVER_CONFIDENT;
  if (phrasings.length === 1) return rule;
  const agreeing = phrasings.filter(({ ranking }) =>
    ranking.some(({ name, score }) => name === leader && score >= rule.threshold),
  ).length;
  return agreeing >= AGREEING_PHRASINGS ? rule : NEVER_CONFIDENT;
}
