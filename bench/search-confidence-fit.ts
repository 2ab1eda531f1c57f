// Fits the search's confidence model (packages/core/src/search/confidence-model.ts) on the DEVELOPMENT query sets and
// cross-validates it across sets: `node --import tsx bench/search-confidence-fit.ts`.
// Each request as written gives one row: the leader's score, its lead over the next match, how specific the rarest
// query word in its name is, whether the request holds a word no skill uses, and how much of its name the request
// leaves out; label 1 when the request is real and its first result right, 0 otherwise (off-topic, or a wrong first result).
// Threshold rule: the least probability at which EVERY set it is chosen on has at most 5% of its off-topic requests
// confident and at most 2% of its real ones confident and wrong. Cross-validation: for each set, fit and choose the
// threshold on all the others, then score it; the worst set is what to expect of sets nobody tuned on.
import { loadCorpus } from "../packages/core/src/search/__fixtures__/load-corpus.js";
import { createSearchIndex, leaderEvidenceOf } from "../packages/core/src/search/search-index.js";
import { CONFIDENCE_WEIGHTS, confidenceOf, type LeaderEvidence } from "../packages/core/src/search/confidence-model.js";
import { DEFAULT_CONFIDENCE_MARGIN } from "../packages/core/src/search/search-index-options.js";
import { confidenceShares, leastThreshold } from "./support/confidence-limits.js";
import { fitLogistic, logisticProbability, type LogisticWeights } from "./support/logistic-fit.js";
import { loadQuerySets } from "./support/query-sets.js";

const OFF_TOPIC_LIMIT = 0.05;
const WRONG_LIMIT = 0.02;

interface Row {
  set: string;
  offTopic: boolean;
  right: boolean;
  evidence: LeaderEvidence;
}

const corpus = loadCorpus();
const dirByName = new Map(corpus.map((skill) => [skill.document.name, skill.dir]));
const index = createSearchIndex(corpus.map((skill) => skill.document));
const rows: Row[] = [];
for (const set of loadQuerySets()) {
  for (const item of set.queries) {
    const { leader, evidence } = leaderEvidenceOf(index, item.query);
    const right =
      leader !== undefined && (item.names.includes(leader) || item.folders.includes(dirByName.get(leader) ?? ""));
    rows.push({ set: set.label, offTopic: item.kind === "off-topic", right, evidence });
  }
}
const labels = [...new Set(rows.map((row) => row.set))];
const features = (e: LeaderEvidence) => [e.score, e.lead, e.nameMatch, e.unknownWord ? 1 : 0, e.nameMissing];

const passes = (probability: number, row: Row, threshold: number) =>
  row.evidence.score > 0 && row.evidence.lead >= DEFAULT_CONFIDENCE_MARGIN && probability >= threshold;

/** The least threshold meeting both limits on every set of `subset`. */
const chooseThreshold = (subset: readonly Row[], probability: (row: Row) => number) =>
  leastThreshold(subset, (row, threshold) => passes(probability(row), row, threshold), {
    offTopic: OFF_TOPIC_LIMIT,
    wrong: WRONG_LIMIT,
  });

const fmt = (value: number) => value.toFixed(3);
/** The model fitted on `subset`. */
const fitOn = (subset: readonly Row[]): LogisticWeights =>
  fitLogistic(
    subset.map((row) => features(row.evidence)),
    subset.map((row) => (!row.offTopic && row.right ? 1 : 0)),
  );
console.log("cross-validation (fit and threshold on the other sets):");
const folds = labels.map((label) => {
  const training = rows.filter((row) => row.set !== label);
  const weights = fitOn(training);
  const probability = (row: Row) => logisticProbability(weights, features(row.evidence));
  const threshold = chooseThreshold(training, probability);
  const s = confidenceShares(
    rows.filter((row) => row.set === label),
    (row) => passes(probability(row), row, threshold),
  );
  console.log(
    `  ${label.padEnd(8)} threshold ${fmt(threshold)}  confident among right first ${fmt(s.confidentRight)}  ` +
      `confident and wrong ${fmt(s.wrong)}  off-topic confident ${fmt(s.offTopic)}`,
  );
  return s;
});
console.log(
  `  worst: confident among right first ${fmt(Math.min(...folds.map((s) => s.confidentRight)))}, confident and ` +
    `wrong ${fmt(Math.max(...folds.map((s) => s.wrong)))}, off-topic confident ${fmt(Math.max(...folds.map((s) => s.offTopic)))}`,
);
const weights = fitOn(rows);
const all = (row: Row) => logisticProbability(weights, features(row.evidence));
console.log(
  `fitted on every set: bias ${fmt(weights[5]!)}, score ${fmt(weights[0]!)}, lead ${fmt(weights[1]!)}, ` +
    `nameMatch ${fmt(weights[2]!)}, unknownWord ${fmt(weights[3]!)}, nameMissing ${fmt(weights[4]!)}; ` +
    `threshold ${chooseThreshold(rows, all).toFixed(4)}`,
);
console.log(`in use (confidence-model.ts): ${JSON.stringify(CONFIDENCE_WEIGHTS)}; per set with the default threshold:`);
const { DEFAULT_CONFIDENCE_THRESHOLD } = await import("../packages/core/src/search/search-index-options.js");
for (const label of labels) {
  const s = confidenceShares(
    rows.filter((row) => row.set === label),
    (row) => passes(confidenceOf(row.evidence), row, DEFAULT_CONFIDENCE_THRESHOLD),
  );
  console.log(
    `  ${label.padEnd(8)} confident among right first ${fmt(s.confidentRight)}  confident and wrong ${fmt(s.wrong)}  ` +
      `off-topic confident ${fmt(s.offTopic)}`,
  );
}
