import { z } from "zod";
import { booleanSchema, fractionSchema } from "../errors/option-schemas.js";
import { parseOptions } from "../errors/parse-options.js";
import { CONCEPT_GROUPS, EQUIVALENT_GROUPS } from "./concept-groups.js";
import type { ConfidenceRule } from "./judge-phrasings.js";
import type { ExpansionWeights } from "./query-slots.js";
import type { RankingParameters } from "./rank-documents.js";
import { buildSynonymMap, defaultSynonyms, type SynonymMap } from "./synonym-map.js";

/** Tuning knobs of `createSearchIndex`; the defaults are what the quality test measures. */
export interface SearchIndexOptions {
  /**
   * Least probability (0..1) the calibrated model (`confidenceOf`) must give the first result for it to be marked
   * `confident`. @default 0.895
   */
  confidenceThreshold?: number;
  /** How far (in score, 0..1) a `confident` result must lead every other match. @default 0.01 */
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

/** Default least probability for `confident`, chosen by bench/search-confidence-fit.ts (docs/design/search-tuning.md). */
export const DEFAULT_CONFIDENCE_THRESHOLD = 0.895;

/** Default lead over every other match that a `confident` result needs: a tie is a coin toss, whatever the score. */
export const DEFAULT_CONFIDENCE_MARGIN = 0.01;

/** Lists of words; every failure says what is expected. */
function stringArraysSchema() {
  const error = "must be an array of string arrays";
  return z.array(z.array(z.string({ error }), { error }), { error });
}

/** The options as one schema, defaults inside. */
const searchIndexOptionsSchema = z.object({
  confidenceThreshold: fractionSchema().default(DEFAULT_CONFIDENCE_THRESHOLD),
  confidenceMargin: fractionSchema().default(DEFAULT_CONFIDENCE_MARGIN),
  extraConceptGroups: stringArraysSchema().readonly().default([]),
  builtInConcepts: booleanSchema().default(true),
});

/** Checks options once and fills in defaults; throws InvalidOptionsError naming the bad option. */
export function resolveSearchIndexOptions(options: SearchIndexOptions): ResolvedSearchIndexOptions {
  const {
    confidenceThreshold: threshold,
    confidenceMargin: margin,
    extraConceptGroups: extra,
    builtInConcepts: builtIn,
  } = parseOptions(searchIndexOptionsSchema, options);
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
