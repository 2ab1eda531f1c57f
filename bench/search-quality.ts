// Measures search quality and speed on the real corpus: `node --expose-gc --import tsx bench/search-quality.ts [--holdout] [--verbose]`. Prints top-1/top-5 accuracy per split,
// confidence figures, abstention AUC on the four DEVELOPMENT sets (natural-queries.json and
// test/fixtures/search-development-queries-{a,b,c}.json: all were looked at while tuning), and build/query timings;
// `--verbose` lists tune-split misses only. Held-out figures come only from a sealed set, never scored here.
import { loadCorpus, loadNaturalQueries } from "../packages/core/src/search/__fixtures__/load-corpus.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createSearchIndex } from "../packages/core/src/search/search-index.js";
import { evaluateSearch } from "./support/search-eval.js";

const showHoldout = process.argv.includes("--holdout");
const verbose = process.argv.includes("--verbose");
const corpus = loadCorpus();
const dirByPath = new Map(corpus.map((skill) => [skill.document.path, skill.dir]));
let started = performance.now();
const index = createSearchIndex(corpus.map((skill) => skill.document));
const buildMs = performance.now() - started;

const queries = loadNaturalQueries();
const figures: Record<string, { n: number; top1: number; top5: number; confident: number }> = {};
const offTopic: Array<{ query: string; top: number; confident: boolean }> = [];
started = performance.now();
for (const item of queries) {
  const results = index.search(item.query, { limit: 5 });
  if (item.expected.length === 0) {
    offTopic.push({ query: item.query, top: results[0]?.score ?? 0, confident: results[0]?.confident ?? false });
    continue;
  }
  const dirs = results.map((result) => dirByPath.get(result.path));
  const rank = dirs.findIndex((dir) => dir !== undefined && item.expected.includes(dir));
  const figure = (figures[item.split] ??= { n: 0, top1: 0, top5: 0, confident: 0 });
  figure.n++;
  if (rank === 0) figure.top1++;
  if (rank >= 0) figure.top5++;
  if (results[0]?.confident) figure.confident++;
  if (verbose && item.split === "tune" && rank !== 0) {
    console.log(
      `${rank < 0 ? "MISS" : `rank${rank + 1}`} ${item.query}\n   want ${item.expected.join(" ")}\n   got  ${results.map((r) => `${dirByPath.get(r.path)?.split("/").pop()}:${r.score.toFixed(2)}`).join(" ")}`,
    );
  }
  if (verbose && item.split === "tune" && !results[0]?.confident)
    console.log(`LOWCONF ${results[0]?.score.toFixed(3)} ${item.query}`);
}
const queryMs = (performance.now() - started) / queries.length;
for (const [split, figure] of Object.entries(figures)) {
  if (split === "holdout" && !showHoldout) continue;
  console.log(
    `${split}: n=${figure.n} top1=${(figure.top1 / figure.n).toFixed(3)} top5=${(figure.top5 / figure.n).toFixed(3)} confident=${(figure.confident / figure.n).toFixed(3)}`,
  );
}
const realTop = queries.length;
console.log(
  `off-topic: n=${offTopic.length} confident=${offTopic.filter((item) => item.confident).length} max=${Math.max(...offTopic.map((item) => item.top)).toFixed(3)}`,
);
if (verbose) for (const item of offTopic) console.log(`  off ${item.top.toFixed(3)} ${item.query}`);
const developmentSet = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, "../test/fixtures", name), "utf8")) as unknown;
const setA = developmentSet("search-development-queries-a.json") as Array<{ query: string; expected: string[] }>;
const setB = (
  developmentSet("search-development-queries-b.json") as { queries: Array<{ query: string; expectedFolder?: string }> }
).queries.map((item) => ({ query: item.query, expected: item.expectedFolder ? [item.expectedFolder] : [] }));
const setC = (
  developmentSet("search-development-queries-c.json") as { queries: Array<{ query: string; expectedFolder?: string }> }
).queries.map((item) => ({ query: item.query, expected: item.expectedFolder ? [item.expectedFolder] : [] }));
const corpusFolder = (path: string) => (dirByPath.has(path) ? `skills/${dirByPath.get(path)}` : undefined);
for (const [label, set, folderOf] of [
  ["natural-queries (dev)", queries, (path: string) => dirByPath.get(path)],
  ["development set A", setA, corpusFolder],
  ["development set B", setB, corpusFolder],
  ["development set C", setC, corpusFolder],
] as const) {
  const figures = evaluateSearch(index, set, folderOf);
  console.log(
    `${label}: top1=${figures.top1.toFixed(3)} top5=${figures.top5.toFixed(3)} auc=${figures.auc.toFixed(3)} confident real=${figures.realConfident.toFixed(3)} off-topic=${figures.offTopicConfident.toFixed(3)}`,
  );
}
console.log(
  `build ${buildMs.toFixed(0)} ms for ${index.size} skills; ${queryMs.toFixed(2)} ms/query over ${realTop} queries`,
);

// Scale: 10 000 synthetic skills made from real bodies (cut to ~5 KB around the corpus median), then one reload-sized update.
const synthetic = Array.from({ length: 10_000 }, (_, i) => {
  const source = corpus[i % corpus.length]!.document;
  const other = corpus[(i * 7 + 3) % corpus.length]!.document;
  return {
    name: `${source.name}-${i}`,
    description: source.description,
    body: (source.body + other.body).slice(0, 5_000),
    path: `/synthetic/${i}/SKILL.md`,
  };
});
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});
collect();
const heapBefore = process.memoryUsage().heapUsed;
started = performance.now();
const large = createSearchIndex(synthetic);
const largeBuildMs = performance.now() - started;
collect();
const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
started = performance.now();
const updated = large.update({
  upsert: synthetic.slice(0, 20).map((doc) => ({ ...doc, body: `${doc.body} changed` })),
  remove: [synthetic[50]!.name],
});
const updateMs = performance.now() - started;
started = performance.now();
for (const item of queries) updated.search(item.query);
const largeQueryMs = (performance.now() - started) / queries.length;
const largeOffTopic = queries.filter(
  (item) => item.expected.length === 0 && large.search(item.query)[0]?.confident,
).length;
console.log(
  `10k skills: build ${largeBuildMs.toFixed(0)} ms, ~${heapMb.toFixed(0)} MB heap, update(20 upserts + 1 remove) ${updateMs.toFixed(0)} ms, ${largeQueryMs.toFixed(2)} ms/query; off-topic confident at 10k: ${largeOffTopic}`,
);
