// Per-style figures of every labelled query set over the shared corpus (lexical index, straight from the corpus):
// `node --import tsx bench/search-styles.ts [--rewrites] [--held-out] [--verbose] [--markdown]` (--markdown: table rows).
// --rewrites: paraphrase requests are searched as [request, ...rewrites] when /work/query-sets/rewrites-<set>.json
// (or test/fixtures/search-rewrites-<set>.json) holds rewrites for them (written by an independent writer from the
// search_skills tool description only). E5a/E5b/E5c are development sets since the confidence model was fitted on them
// (--held-out is kept and changes nothing); score new held-out sets with bench/search-held-out.ts.
import { loadCorpus } from "../packages/core/src/search/__fixtures__/load-corpus.js";
import { createSearchIndex } from "../packages/core/src/search/search-index.js";
import { loadQuerySets, rewritesOf } from "./support/query-sets.js";
import { evaluateStyles } from "./support/style-eval.js";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const corpus = loadCorpus();
const dirByPath = new Map(corpus.map((skill) => [skill.document.path, skill.dir]));
const index = createSearchIndex(corpus.map((skill) => skill.document));

const pct = (value: number) => (Number.isNaN(value) ? "  -  " : value.toFixed(3));
for (const set of loadQuerySets(flag("--held-out"))) {
  const rewrites = flag("--rewrites") ? rewritesOf(set.label) : {};
  const figures = evaluateStyles(
    set.queries,
    (item) => index.search(rewrites[item.id] ? [item.query, ...rewrites[item.id]!] : item.query, { limit: 5 }),
    (path) => dirByPath.get(path),
  );
  const withRewrites =
    Object.keys(rewrites).length > 0 ? ` (paraphrase with ${Object.keys(rewrites).length} rewrites)` : "";
  const name = `${set.label}${set.heldOut ? " (held out)" : ""}`;
  if (flag("--markdown")) {
    for (const style of figures.styles) {
      const label = style.style === "paraphrase" && withRewrites ? "paraphrase + rewrites" : style.style;
      console.log(
        `| ${name} | ${label} | ${style.count} | ${pct(style.top1)} | ${pct(style.top5)} | ${pct(style.auc)} | ` +
          `${pct(style.confident)} | ${Math.round(style.confidentWrong * style.count)} |`,
      );
    }
    console.log(`| ${name} | off-topic | ${figures.offTopic} | | | | ${figures.offTopicConfident} confident | |`);
    continue;
  }
  console.log(
    `set ${set.label}${set.heldOut ? " HELD-OUT" : ""}${withRewrites}: off-topic confident ${figures.offTopicConfident}/${figures.offTopic}`,
  );
  for (const style of figures.styles) {
    console.log(
      `  ${style.style.padEnd(18)} n=${String(style.count).padStart(3)} top1=${pct(style.top1)} top5=${pct(style.top5)} ` +
        `auc=${pct(style.auc)} conf=${pct(style.confident)} conf&wrong=${pct(style.confidentWrong)}`,
    );
  }
  if (!flag("--verbose")) continue;
  for (const row of figures.rows) {
    const bad = row.kind === "off-topic" ? row.confident : row.confident && !row.right;
    if (bad)
      console.log(
        `    ${row.kind === "off-topic" ? "OFF " : "WRONG"} ${row.score.toFixed(3)} ${row.query} -> ${row.first}`,
      );
  }
}
