import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import { CONCEPT_GROUPS, EQUIVALENT_GROUPS } from "./concept-groups.js";
import type { ConfidenceRule } from "./mark-confident.js";
import type { ExpansionWeights } from "./query-slots.js";
import type { RankingParameters } from "./rank-documents.js";
import { buildSynonymMap, defaultSynonyms, type SynonymMap } from "./synonym-map.js";

/** Tuning knobs of `createSearchIndex`; the defaults are what the quality test measures. */
export interface SearchIndexOptions {
  /** Score (0..1) the first result must reach to be marked `confident`. @default 0.45 */
  confidenceThreshold?: number;
  /** How far (in score, 0..1) a `confident` result must lead every other match. @default 0.03 */
  confidenceMargin?: number;
  /** Extra concept groups (lists of interchangeable words), added to the built-in table. @default [] */
  extraConceptGroups?: ReadonlyArray<readonly string[]>;
  /** Use the built-in concept table. @default true */
  builtInConcepts?: boolean;
}

/** Options with defaults filled in and derived structures built. */
export interface ResolvedSearchIndexOptions {
  confidence: ConfidenceRule;
  synonyms: SynonymMap;
  expansion: ExpansionWeights;
  ranking: RankingParameters;
}

/** Default score threshold for `confident` (see docs/search.md for how it was measured). */
export const DEFAULT_CONFIDENCE_THRESHOLD = 0.45;

/** Default lead over every other match that a `confident` result needs (see docs/design/search-tuning.md). */
export const DEFAULT_CONFIDENCE_MARGIN = 0.03;

/** Checks options once and fills in defaults; throws InvalidOptionsError naming the bad option. */
export function resolveSearchIndexOptions(options: SearchIndexOptions): ResolvedSearchIndexOptions {
  const threshold = options.confidenceThreshold ?? DEFAULT_CONFIDENCE_THRESHOLD;
  if (typeof threshold !== "number" || !(threshold >= 0 && threshold <= 1)) {
    throw new InvalidOptionsError({
      option: "confidenceThreshold",
      value: threshold,
      message: "must be a number in 0..1",
    });
  }
  const margin = options.confidenceMargin ?? DEFAULT_CONFIDENCE_MARGIN;
  if (typeof margin !== "number" || !(margin >= 0 && margin <= 1)) {
    throw new InvalidOptionsError({ option: "confidenceMargin", value: margin, message: "must be a number in 0..1" });
  }
  const extra = options.extraConceptGroups ?? [];
  if (
    !Array.isArray(extra) ||
    !extra.every((group) => Array.isArray(group) && group.every((word) => typeof word === "string"))
  ) {
    throw new InvalidOptionsError({
      option: "extraConceptGroups",
      value: extra,
      message: "must be an array of string arrays",
    });
  }
  const builtIn = options.builtInConcepts ?? true;
  if (typeof builtIn !== "boolean") {
    throw new InvalidOptionsError({ option: "builtInConcepts", value: builtIn, message: "must be a boolean" });
  }
  const synonyms =
    builtIn && extra.length === 0
      ? defaultSynonyms()
      : buildSynonymMap([...(builtIn ? CONCEPT_GROUPS : []), ...extra], builtIn ? EQUIVALENT_GROUPS : []);
  return {
    confidence: { threshold, margin },
    synonyms,
    expansion: { synonym: 0.5, equivalent: 0.9, fuzzy: 0.9 },
    ranking: {
      weights: [3, 3, 1, 0.3],
      lengthNormalization: [0.3, 0.5, 0.5, 0.75],
      k1: 2,
      unmatchedNameWeight: 3,
      unknownOtherScriptWeight: 0.5,
    },
  };
}
