// Prints top-1, top-5, abstention AUC and confident shares on every DEVELOPMENT set (natural-queries.json and
// test/fixtures/search-development-queries-{a,b,c}.json; all were looked at while tuning, none is held out):
// `node --import tsx bench/search-sets.ts [--verbose]` (`--verbose` lists off-topic scores and real queries below 0.3).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadCorpus, loadNaturalQueries } from "../packages/core/src/search/__fixtures__/load-corpus.js";
import { createSearchIndex } from "../packages/core/src/search/search-index.js";
import { evaluateSearch, type LabelledQuery } from "./support/search-eval.js";

const verbose = process.argv.includes("--verbose");
const corpus = loadCorpus();
const dirByPath = new Map(corpus.map((skill) => [skill.document.path, skill.dir]));
const index = createSearchIndex(corpus.map((skill) => skill.document));
const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, "../test/fixtures", name), "utf8")) as unknown;
const folderSet = (name: string): LabelledQuery[] =>
  (fixture(name) as { queries: Array<{ query: string; expectedFolder?: string }> }).queries.map((item) => ({
    query: item.query,
    expected: item.expectedFolder ? [item.expectedFolder] : [],
  }));
const corpusFolder = (path: string) => (dirByPath.has(path) ? `skills/${dirByPath.get(path)}` : undefined);
const sets: Array<[string, LabelledQuery[], (path: string) => string | undefined]> = [
  ["natural-queries", loadNaturalQueries(), (path) => dirByPath.get(path)],
  ["set A", fixture("search-development-queries-a.json") as LabelledQuery[], corpusFolder],
  ["set B", folderSet("search-development-queries-b.json"), corpusFolder],
  ["set C", folderSet("search-development-queries-c.json"), corpusFolder],
];
for (const [label, set, folderOf] of sets) {
  const figures = evaluateSearch(index, set, folderOf);
  const offConfident = Math.round(figures.offTopicConfident * figures.offTopic);
  console.log(
    `${label.padEnd(16)} top1=${figures.top1.toFixed(3)} top5=${figures.top5.toFixed(3)} ` +
      `auc=${figures.auc.toFixed(3)} ` +
      `confident real=${figures.realConfident.toFixed(3)} off-topic=${offConfident}/${figures.offTopic}`,
  );
  if (!verbose) continue;
  for (const item of set) {
    const [best] = index.search(item.query, { limit: 1 });
    const score = best?.score ?? 0;
    if (item.expected.length === 0) console.log(`  off  ${score.toFixed(3)} ${item.query} -> ${best?.name}`);
    else if (score < 0.3) console.log(`  LOW  ${score.toFixed(3)} ${item.query} -> ${best?.name}`);
  }
}
