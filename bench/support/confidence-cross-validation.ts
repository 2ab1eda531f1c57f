// What the scripts that try evidence for the search's confidence model share (bench/search-confidence-features.ts,
// bench/search-confidence-wordnet.ts): the corpus's index with the ranking's weight of a query word, one row of
// features per development request, and the leave-one-set-out cross-validation of a logistic model over some of them
// (for each set, the weights and the threshold come from all the others; see bench/search-confidence-fit.ts).
import { loadCorpus } from "../../packages/core/src/search/__fixtures__/load-corpus.js";
import { documentFrequency } from "../../packages/core/src/search/index-state.js";
import type { QuerySlot } from "../../packages/core/src/search/query-slots.js";
import { inverseDocumentFrequency } from "../../packages/core/src/search/rank-documents.js";
import { createSearchIndex, stateOfIndex } from "../../packages/core/src/search/search-index.js";
import {
  DEFAULT_CONFIDENCE_MARGIN,
  resolveSearchIndexOptions,
} from "../../packages/core/src/search/search-index-options.js";
import { confidenceShares, leastThreshold } from "./confidence-limits.js";
import { fitLogistic, logisticProbability } from "./logistic-fit.js";
import { loadQuerySets } from "./query-sets.js";

/** One development request: its set, whether it is off-topic, whether its first result is right, and its features. */
export interface EvidenceRow {
  set: string;
  offTopic: boolean;
  right: boolean;
  f: Record<string, number>;
}

/** The features of the model in use (packages/core/src/search/confidence-model.ts). */
export const MODEL_FEATURES = ["score", "lead", "nameMatch", "unknownWord", "nameMissing"];

/** The corpus's skills. */
export const corpus = loadCorpus();
/** Skill name → its folder in the corpus (a request's expected skill may be given by either). */
export const dirByName = new Map(corpus.map((skill) => [skill.document.name, skill.dir]));
/** The corpus's search index. */
export const corpusIndex = createSearchIndex(corpus.map((skill) => skill.document));
/** The arrays of the corpus's search index. */
export const state = stateOfIndex(corpusIndex);
/** The search index's default options. */
export const options = resolveSearchIndexOptions({});
/** The IDF of a word no skill has. */
export const MOST = inverseDocumentFrequency(0, state.count);

/**
 * A slot's importance as the ranking weighs it (see slotImportance in rank-documents.ts); `otherScript: false` leaves
 * out the lower weight of an unknown word in another script (as the WordNet figures were measured).
 */
export function importance(slot: QuerySlot, weighOtherScript = true): number {
  const own = documentFrequency(state, slot.term);
  if (own > 0) return inverseDocumentFrequency(own, state.count);
  let best = -1;
  for (const alternative of slot.alternatives) {
    const frequency = documentFrequency(state, alternative.term);
    if (frequency > 0) best = Math.max(best, inverseDocumentFrequency(frequency, state.count));
  }
  const unknown = weighOtherScript && slot.otherScript ? options.ranking.unknownOtherScriptWeight : 1;
  return best >= 0 ? best : MOST * unknown;
}

/** One row per request of every development set, from the first result's name and features as `featuresOf` gives them. */
export function evidenceRows(
  featuresOf: (query: string) => { leader: string | undefined; f: Record<string, number> },
): EvidenceRow[] {
  const rows: EvidenceRow[] = [];
  for (const set of loadQuerySets()) {
    for (const item of set.queries) {
      const { leader, f } = featuresOf(item.query);
      const right =
        leader !== undefined && (item.names.includes(leader) || item.folders.includes(dirByName.get(leader) ?? ""));
      rows.push({ set: set.label, offTopic: item.kind === "off-topic", right, f });
    }
  }
  return rows;
}

/** How {@link crossValidate} judges and prints. */
export interface CrossValidation {
  /** Most off-topic requests confident per set when choosing the threshold. @default 0.05 */
  offTopicLimit?: number;
  /** Most real requests confident and wrong per set. @default 0.02 */
  wrongLimit?: number;
  /** Print each fold and the weights fitted on every set. */
  verbose?: boolean;
  /** Features left out of the printed name (the model in use, when only the added ones matter). @default 0 */
  shown?: number;
  /** What a row must show before the model is asked. @default the leader scores and leads by the margin */
  gate?: (row: EvidenceRow) => boolean;
  /** Name printed before the features. @default "" */
  title?: string;
}

/** The gate of the model in use: the leader scores and leads every other match by the margin. */
export const LEXICAL_GATE = (row: EvidenceRow) => row.f.score! > 0 && row.f.lead! >= DEFAULT_CONFIDENCE_MARGIN;

const fmt = (value: number) => value.toFixed(3);

/**
 * Leave-one-set-out cross-validation of the logistic model over `features` ("a*b" is a product); prints one line: the
 * worst set's share of right first results confident, the mean over sets, and the worst off-topic and wrong shares.
 */
export function crossValidate(rows: readonly EvidenceRow[], features: readonly string[], how: CrossValidation = {}) {
  const { offTopicLimit = 0.05, wrongLimit = 0.02, verbose = false, shown = 0, gate = LEXICAL_GATE, title = "" } = how;
  const labels = [...new Set(rows.map((row) => row.set))];
  const passes = (probability: number, row: EvidenceRow, threshold: number) => gate(row) && probability >= threshold;
  const vector = (row: EvidenceRow) =>
    features.map((name) => name.split("*").reduce((product, part) => product * row.f[part]!, 1));
  const fit = (subset: readonly EvidenceRow[]) =>
    fitLogistic(
      subset.map(vector),
      subset.map((row) => (!row.offTopic && row.right ? 1 : 0)),
    );
  const folds = labels.map((label) => {
    const training = rows.filter((row) => row.set !== label);
    const weights = fit(training);
    const probability = (row: EvidenceRow) => logisticProbability(weights, vector(row));
    const threshold = leastThreshold(training, (row, t) => passes(probability(row), row, t), {
      offTopic: offTopicLimit,
      wrong: wrongLimit,
    });
    const s = confidenceShares(
      rows.filter((row) => row.set === label),
      (row) => passes(probability(row), row, threshold),
    );
    if (verbose)
      console.log(
        `    ${label.padEnd(8)} threshold ${fmt(threshold)}  confident among right first ${fmt(s.confidentRight)}  ` +
          `confident and wrong ${fmt(s.wrong)}  off-topic confident ${fmt(s.offTopic)}`,
      );
    return s;
  });
  const worst = Math.min(...folds.map((s) => s.confidentRight));
  const mean = folds.reduce((sum, s) => sum + s.confidentRight, 0) / folds.length;
  if (verbose)
    console.log(`    fitted on every set: ${fit(rows).map(fmt).join(" ")} (weights in order, then the bias)`);
  const offTopicWorst = Math.max(...folds.map((s) => s.offTopic));
  const wrongWorst = Math.max(...folds.map((s) => s.wrong));
  const worstSet = folds.reduce((at, s, i) => (s.confidentRight < folds[at]!.confidentRight ? i : at), 0);
  console.log(
    `  ${title}${features.slice(shown).join(",").padEnd(56)} worst ${fmt(worst)} (${labels[worstSet]})  mean ${fmt(mean)}  ` +
      `off-topic worst ${fmt(offTopicWorst)}  wrong worst ${fmt(wrongWorst)}`,
  );
  return { worst, worstSet: labels[worstSet]!, mean, offTopicWorst, wrongWorst, folds, labels };
}
