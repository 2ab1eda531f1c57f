// Scores query sets nobody tuned on, as written (one phrasing per request), over the shared corpus:
// `node --import tsx bench/search-held-out.ts <file.json>...` (the E5 format: `{ queries: [{ query, kind, expected,
// expectedFolder, alsoAcceptable }] }`, `expected: null` for a request nothing fits). Per set and worst of the sets:
// top-1, top-5, the share of real requests whose first result is right that are confident, the share of real requests
// confident with a wrong first result, and the share of off-topic requests confident. Score a held-out set ONCE, and
// record it in docs/design/search-tuning.md; a change made while looking at its results makes it a development set.
import { basename } from "node:path";
import { loadCorpus } from "../packages/core/src/search/__fixtures__/load-corpus.js";
import { createSearchIndex } from "../packages/core/src/search/search-index.js";
import { readQuerySet } from "./support/query-sets.js";
import { evaluateStyles } from "./support/style-eval.js";

const files = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
if (files.length === 0) {
  console.error("usage: node --import tsx bench/search-held-out.ts <set.json>...");
  process.exit(2);
}
const corpus = loadCorpus();
const dirByPath = new Map(corpus.map((skill) => [skill.document.path, skill.dir]));
const index = createSearchIndex(corpus.map((skill) => skill.document));

interface HeldOutFigures {
  label: string;
  real: number;
  offTopic: number;
  top1: number;
  top5: number;
  confidentAmongRight: number;
  confidentWrong: number;
  offTopicConfident: number;
}

const figures: HeldOutFigures[] = files.map((file) => {
  const set = readQuerySet(basename(file, ".json"), file, true);
  const { rows } = evaluateStyles(
    set.queries,
    (item) => index.search(item.query, { limit: 5 }),
    (path) => dirByPath.get(path),
  );
  const real = rows.filter((row) => row.kind !== "off-topic");
  const off = rows.filter((row) => row.kind === "off-topic");
  const right = real.filter((row) => row.right);
  const share = (count: number, of: number) => (of === 0 ? Number.NaN : count / of);
  return {
    label: set.label,
    real: real.length,
    offTopic: off.length,
    top1: share(right.length, real.length),
    top5: share(real.filter((row) => row.rank >= 0).length, real.length),
    confidentAmongRight: share(right.filter((row) => row.confident).length, right.length),
    confidentWrong: share(real.filter((row) => row.confident && !row.right).length, real.length),
    offTopicConfident: share(off.filter((row) => row.confident).length, off.length),
  };
});

const fmt = (value: number) => (Number.isNaN(value) ? "  -  " : value.toFixed(3));
const header =
  "| set | real / off-topic | top-1 | top-5 | confident among right first | confident and wrong | off-topic confident |";
console.log(header);
console.log("|---|---|---|---|---|---|---|");
const line = (f: Omit<HeldOutFigures, "real" | "offTopic"> & { sizes: string }) =>
  console.log(
    `| ${f.label} | ${f.sizes} | ${fmt(f.top1)} | ${fmt(f.top5)} | ${fmt(f.confidentAmongRight)} | ` +
      `${fmt(f.confidentWrong)} | ${fmt(f.offTopicConfident)} |`,
  );
for (const f of figures) line({ ...f, sizes: `${f.real} / ${f.offTopic}` });
const finite = (values: number[]) => values.filter((value) => !Number.isNaN(value));
const worstLow = (pick: (f: HeldOutFigures) => number) => Math.min(...finite(figures.map(pick)));
const worstHigh = (pick: (f: HeldOutFigures) => number) => Math.max(...finite(figures.map(pick)));
line({
  label: "**worst**",
  sizes: "",
  top1: worstLow((f) => f.top1),
  top5: worstLow((f) => f.top5),
  confidentAmongRight: worstLow((f) => f.confidentAmongRight),
  confidentWrong: worstHigh((f) => f.confidentWrong),
  offTopicConfident: worstHigh((f) => f.offTopicConfident),
});
console.log(
  "\ngoals as written: confident among right first >= 0.70, confident and wrong <= 0.02, off-topic confident <= 0.05",
);
