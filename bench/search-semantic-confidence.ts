// What a real sentence-embedding model adds to the search, on the DEVELOPMENT query sets only (loadQuerySets(), no
// held-out set): `node --import tsx bench/search-semantic-confidence.ts [--verbose] [--rankings-only] [--separation]
// [--fused] [--learned] [feature,feature...]` (docs/design/search-tuning.md, "Universal Sentence Encoder lite"; a feature list
// scores the model in use and it plus the list, of the fused leader with --fused; --separation prints how well each
// feature alone tells right first results from wrong and off-topic ones; --learned adds a per-dimension weighted
// cosine fitted out of set, bench/support/learned-similarity.ts). The model: Universal Sentence Encoder lite
// (bench/support/use-embeddings.ts; vectors cached under node_modules/.cache). Every corpus skill is embedded as the
// registry embeds it ("name: description", `nd`) and with the first lines of its body (`ndb`); every request as written.
// 1. Top-1 / top-5 per set: lexical, semantic alone, fused (the registry's fuseRankings: reciprocal rank, a confident
//    lexical leader kept first), plain reciprocal-rank fusion, and the semantic list's share scaled by 0.5 and 0.25.
// 2. The confidence model in use plus semantic features of the lexical leader, cross-validated leave-one-set-out
//    exactly as bench/search-confidence-fit.ts does: cos (its cosine with the request), cosRank (its place in the
//    semantic ranking, 0 = first), cosFirst (it is the semantic leader), cosMargin (its cosine minus the best other
//    skill's), cosZ (its cosine in standard deviations above the mean over all skills), cosTop / cosGap (the best
//    cosine, and its lead over the second: how on-topic the request is at all); suffix B = with body lines.
// 3. The fused ranking's leader judged instead (its lexical evidence and its semantic features), gated as in use (it
//    must lead lexically) or only by a positive lexical score.
import { confidenceOf, type LeaderEvidence } from "../packages/core/src/search/confidence-model.js";
import { fuseRankings, type SemanticHit } from "../packages/core/src/search/fuse-rankings.js";
import { nameMatch, nameMissing } from "../packages/core/src/search/name-match.js";
import { buildQuerySlots } from "../packages/core/src/search/query-slots.js";
import { rankDocuments } from "../packages/core/src/search/rank-documents.js";
import { createSearchIndex } from "../packages/core/src/search/search-index.js";
import type { SearchResult } from "../packages/core/src/search/search-types.js";
import { hasUnknownWord } from "../packages/core/src/search/unknown-words.js";
import { loadCorpus } from "../packages/core/src/search/__fixtures__/load-corpus.js";
import {
  crossValidate as crossValidateRows,
  dirByName,
  evidenceRows,
  type EvidenceRow,
  MODEL_FEATURES,
  options,
  state,
} from "./support/confidence-cross-validation.js";
import { loadQuerySets } from "./support/query-sets.js";
import { outOfSetScores, type VectorPair } from "./support/learned-similarity.js";
import { dot, embedTexts } from "./support/use-embeddings.js";

const verbose = process.argv.includes("--verbose");
const BASE = MODEL_FEATURES;
const POOL = 50;

const corpus = loadCorpus();
const index = createSearchIndex(corpus.map((skill) => skill.document));
const names = Array.from({ length: state.count }, (_, id) => state.docs.nameOf(id));
const idByName = new Map(names.map((name, id) => [name, id]));
const documentByName = new Map(corpus.map((skill) => [skill.document.name, skill.document]));

/** The first lines of a skill's body (headings' marks and code fences dropped), about 300 characters. */
function bodyStart(body: string): string {
  const lines = body
    .split("\n")
    .map((line) => line.replace(/^#+\s*/, "").trim())
    .filter((line) => line.length > 0 && !line.startsWith("```") && !line.startsWith("---"));
  let text = "";
  for (const line of lines) {
    if (text.length >= 300) break;
    text += `${text ? " " : ""}${line}`;
  }
  return text.slice(0, 400);
}

const ndText = (name: string) => `${name}: ${documentByName.get(name)!.description}`;
const ndbText = (name: string) => `${ndText(name)} ${bodyStart(documentByName.get(name)!.body)}`;
const sets = loadQuerySets();
const requests = [...new Set(sets.flatMap((set) => set.queries.map((item) => item.query)))];
const started = performance.now();
const skillNd = await embedTexts(names.map(ndText));
const skillNdb = await embedTexts(names.map(ndbText));
const requestVectors = await embedTexts(requests);
/** A skill's pieces: its name (words), then each sentence or clause of its description. */
const piecesOf = (name: string) => [
  name.replace(/[-_]/g, " "),
  ...documentByName
    .get(name)!
    .description.split(/(?<=[.;:!?])\s+|\s+-\s+/)
    .map((piece) => piece.trim())
    .filter((piece) => piece.length > 3),
];
const pieceLists = names.map(piecesOf);
const pieceVectors = await embedTexts(pieceLists.flat());
let at = 0;
const skillPieces = pieceLists.map((list) => pieceVectors.slice(at, (at += list.length)));
const vectorOf = new Map(requests.map((query, i) => [query, requestVectors[i]!]));
console.log(
  `embedded ${names.length} skills twice and ${requests.length} requests in ${Math.round(performance.now() - started)} ms`,
);

/** Each skill's cosine with the request (by id) and the ids best first. */
function semantic(query: string, skills: readonly Float32Array[] | readonly Float32Array[][]) {
  const vector = vectorOf.get(query)!;
  const cosines = skills.map((skill) =>
    Array.isArray(skill) ? Math.max(...skill.map((piece) => dot(piece, vector))) : dot(skill as Float32Array, vector),
  );
  const order = cosines.map((_, id) => id).sort((a, b) => cosines[b]! - cosines[a]! || a - b);
  const mean = cosines.reduce((sum, c) => sum + c, 0) / cosines.length;
  const sd = Math.sqrt(cosines.reduce((sum, c) => sum + (c - mean) ** 2, 0) / cosines.length) || 1;
  return { cosines, order, mean, sd };
}

/** The semantic features of skill `id` (suffix added to each name). */
function semanticFeatures(view: ReturnType<typeof semantic>, id: number | undefined, suffix: string) {
  const { cosines, order, mean, sd } = view;
  const top = cosines[order[0]!]!;
  const f: Record<string, number> = { [`cosTop${suffix}`]: top, [`cosGap${suffix}`]: top - cosines[order[1]!]! };
  if (id === undefined)
    return {
      ...f,
      [`cos${suffix}`]: 0,
      [`cosRank${suffix}`]: 5,
      [`cosFirst${suffix}`]: 0,
      [`cosMargin${suffix}`]: -1,
      [`cosZ${suffix}`]: 0,
      [`cosInv${suffix}`]: 0,
    };
  const rank = order.indexOf(id);
  const other = cosines[order[0] === id ? order[1]! : order[0]!]!;
  return {
    ...f,
    [`cos${suffix}`]: cosines[id]!,
    [`cosRank${suffix}`]: Math.min(rank, 5),
    [`cosInv${suffix}`]: 1 / (1 + rank),
    [`cosFirst${suffix}`]: rank === 0 ? 1 : 0,
    [`cosMargin${suffix}`]: cosines[id]! - other,
    [`cosZ${suffix}`]: (cosines[id]! - mean) / sd,
  };
}

/** The lexical ranking of a request (positive scores, best first) with the slots it was ranked by. */
function lexical(query: string) {
  const slots = buildQuerySlots(query, state, options.synonyms, options.expansion);
  const ranking = rankDocuments(state, slots, options.ranking, POOL).filter(({ score }) => score > 0);
  return { slots, ranking };
}

/** The lexical evidence of skill `id` in a ranking: its score, lead over the best other, name match and miss. */
function lexicalEvidence(query: string, id: number | undefined) {
  const { slots, ranking } = lexical(query);
  const score = ranking.find((hit) => hit.id === id)?.score ?? 0;
  const other = ranking.filter((hit) => hit.id !== id).reduce((best, hit) => Math.max(best, hit.score), 0);
  return {
    score,
    lead: score - other,
    nameMatch: id === undefined ? 0 : nameMatch(state, slots, id),
    unknownWord: hasUnknownWord(slots, state) ? 1 : 0,
    nameMissing: id === undefined ? 1 : nameMissing(state, slots, names[id]!),
  };
}

/** The fused ranking's ids (the registry's fusion when `keepConfident`, else plain reciprocal rank fusion). */
function fused(query: string, view: ReturnType<typeof semantic>, keepConfident: boolean): number[] {
  const lexicalResults = index.search(query, { limit: POOL });
  const results: SearchResult[] = keepConfident
    ? lexicalResults
    : lexicalResults.map((r) => ({ ...r, confident: false }));
  const hits: SemanticHit[] = view.order.slice(0, POOL).map((id) => ({
    name: names[id]!,
    path: "",
    description: "",
    cosine: view.cosines[id]!,
  }));
  return fuseRankings(results, hits, POOL).map((result) => idByName.get(result.name)!);
}

/** Reciprocal rank fusion with the semantic list's share scaled by `weight`, a confident lexical leader kept first. */
function weighted(query: string, view: ReturnType<typeof semantic>, weight: number): number[] {
  const lexicalResults = index.search(query, { limit: POOL });
  const rrf = new Map<number, number>();
  lexicalResults.forEach((result, rank) => rrf.set(idByName.get(result.name)!, 1 / (60 + rank + 1)));
  view.order.slice(0, POOL).forEach((id, rank) => rrf.set(id, (rrf.get(id) ?? 0) + weight / (60 + rank + 1)));
  if (lexicalResults[0]?.confident) rrf.set(idByName.get(lexicalResults[0].name)!, Number.POSITIVE_INFINITY);
  return [...rrf.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
}

/** Every feature of one request, judging the leader `pick` chooses. */
function featuresWith(pick: (query: string, nd: ReturnType<typeof semantic>) => number | undefined) {
  return (query: string) => {
    const nd = semantic(query, skillNd);
    const ndb = semantic(query, skillNdb);
    const id = pick(query, nd);
    const pieces = semantic(query, skillPieces);
    const f = {
      ...lexicalEvidence(query, id),
      ...semanticFeatures(nd, id, ""),
      ...semanticFeatures(ndb, id, "B"),
      ...semanticFeatures(pieces, id, "S"),
    };
    return { leader: id === undefined ? undefined : names[id], f };
  };
}

const lexicalLeader = (query: string) => lexical(query).ranking[0]?.id;

// 1. Rankings.
const fmt = (value: number) => value.toFixed(3);
const isRight = (item: { names: string[]; folders: string[] }, id: number | undefined) =>
  id !== undefined && (item.names.includes(names[id]!) || item.folders.includes(dirByName.get(names[id]!) ?? ""));
const rankers: Array<[string, (query: string) => number[]]> = [
  ["lexical", (query) => lexical(query).ranking.map((hit) => hit.id)],
  ["semantic nd", (query) => semantic(query, skillNd).order],
  ["semantic ndb", (query) => semantic(query, skillNdb).order],
  ["fused nd", (query) => fused(query, semantic(query, skillNd), true)],
  ["fused ndb", (query) => fused(query, semantic(query, skillNdb), true)],
  ["semantic pieces", (query) => semantic(query, skillPieces).order],
  ["plain RRF nd", (query) => fused(query, semantic(query, skillNd), false)],
  ["fused nd, semantic x0.5", (query) => weighted(query, semantic(query, skillNd), 0.5)],
  ["fused nd, semantic x0.25", (query) => weighted(query, semantic(query, skillNd), 0.25)],
];
console.log(`\n| set | ${rankers.map(([name]) => `${name} top-1 / top-5`).join(" | ")} |`);
console.log(`|---|${rankers.map(() => "---|").join("")}`);
const sums = rankers.map(() => ({ top1: 0, top5: 0, worst1: 1, worst5: 1 }));
for (const set of sets) {
  const real = set.queries.filter((item) => item.kind !== "off-topic");
  const cells = rankers.map(([, rank], r) => {
    let top1 = 0;
    let top5 = 0;
    for (const item of real) {
      const ids = rank(item.query).slice(0, 5);
      if (isRight(item, ids[0])) top1++;
      if (ids.some((id) => isRight(item, id))) top5++;
    }
    const s = sums[r]!;
    s.top1 += top1 / real.length / sets.length;
    s.top5 += top5 / real.length / sets.length;
    s.worst1 = Math.min(s.worst1, top1 / real.length);
    s.worst5 = Math.min(s.worst5, top5 / real.length);
    return `${fmt(top1 / real.length)} / ${fmt(top5 / real.length)}`;
  });
  console.log(`| ${set.label} | ${cells.join(" | ")} |`);
}
console.log(`| mean | ${sums.map((s) => `${fmt(s.top1)} / ${fmt(s.top5)}`).join(" | ")} |`);
console.log(`| worst | ${sums.map((s) => `${fmt(s.worst1)} / ${fmt(s.worst5)}`).join(" | ")} |`);

if (process.argv.includes("--rankings-only")) process.exit(0);

// 2. The lexical leader judged with semantic evidence.
const rows = evidenceRows(featuresWith(lexicalLeader));
/** Cross-validates, then prints the mean over sets of the share of real requests confident and right. */
function crossValidate(
  features: readonly string[],
  how: { rows?: readonly EvidenceRow[]; title?: string; gate?: (row: EvidenceRow) => boolean } = {},
) {
  const judged = how.rows ?? rows;
  const result = crossValidateRows(judged, features, { verbose, shown: BASE.length, title: how.title, gate: how.gate });
  const rightShare = result.labels.map((label) => {
    const real = judged.filter((row) => row.set === label && !row.offTopic);
    return real.filter((row) => row.right).length / real.length;
  });
  const meanRight =
    result.folds.reduce((sum, s, i) => sum + s.confidentRight * rightShare[i]!, 0) / result.folds.length;
  console.log(`      real requests confident and right, mean over sets ${fmt(meanRight)}`);
  return result;
}
console.log(
  `\nleave-one-set-out over ${new Set(rows.map((row) => row.set)).size} development sets (${rows.length} requests):`,
);
const chosen = process.argv.slice(2).find((arg) => !arg.startsWith("--"));
if (process.argv.includes("--learned")) {
  // A weighted cosine learned per dimension, scored out of set, as a sixth feature (see learned-similarity.ts).
  const queries = sets.flatMap((set) => set.queries.map((item) => item.query));
  const pairs: VectorPair[] = rows.map((row, i) => {
    const leader = lexicalLeader(queries[i]!);
    return {
      set: row.set,
      query: vectorOf.get(queries[i]!)!,
      skill: leader === undefined ? new Float32Array(512) : skillNd[leader]!,
      label: !row.offTopic && row.right ? 1 : 0,
    };
  });
  const learned = outOfSetScores(pairs);
  const withLearned = rows.map((row, i) => ({ ...row, f: { ...row.f, learned: learned[i]! } }));
  const good = withLearned.filter((row) => !row.offTopic && row.right).map((row) => row.f.learned);
  const bad = withLearned.filter((row) => row.offTopic || !row.right).map((row) => row.f.learned);
  console.log(`learned similarity, AUC right first vs the rest, out of set: ${fmt(auc(good, bad))}`);
  crossValidate(BASE, { rows: withLearned });
  crossValidate([...BASE, "learned"], { rows: withLearned });
  crossValidate([...BASE, "learned", "cos"], { rows: withLearned });
  process.exit(0);
}
const fusedLeaderRows = () => evidenceRows(featuresWith((query, nd) => fused(query, nd, true)[0]));
if (process.argv.includes("--separation")) for (const least of [0, 0.7, 0.85]) separation(rows, least);
else if (chosen) {
  const judged = process.argv.includes("--fused") ? fusedLeaderRows() : rows;
  crossValidate(BASE, { rows: judged });
  crossValidate([...BASE, ...chosen.split(",")], { rows: judged });
} else {
  crossValidate(BASE, { title: "in use " });
  const single = ["cos", "cosRank", "cosInv", "cosFirst", "cosMargin", "cosZ", "cosTop", "cosGap"];
  for (const suffix of ["", "B", "S"]) for (const name of single) crossValidate([...BASE, `${name}${suffix}`]);
  for (const extra of [
    ["cos", "cosMargin"],
    ["cosMargin", "cosFirst"],
    ["cos", "cosFirst"],
    ["cosMargin", "cosZ"],
    ["cos", "cosMargin", "cosFirst"],
    ["cosMargin", "cosGap"],
    ["cosMargin", "cosTop"],
    ["cosB", "cosMarginB"],
    ["cosMargin", "cosMarginB"],
    ["cos", "cosMargin", "cosB", "cosMarginB"],
    ["cosMargin", "cosFirst", "cosZ", "cosTop"],
    ["cosS", "cosMarginS"],
    ["cosMargin", "cosMarginS"],
  ])
    crossValidate([...BASE, ...extra]);
  // 3. The fused ranking's leader judged instead.
  for (const [title, keep] of [
    ["fused leader ", true],
    ["plain RRF leader ", false],
  ] as const) {
    const fusedRows = evidenceRows(featuresWith((query, nd) => fused(query, nd, keep)[0]));
    const loose = (row: EvidenceRow) => row.f.score! > 0;
    for (const extra of [[], ["cosMargin"], ["cos", "cosMargin"], ["cosMargin", "cosFirst"]]) {
      crossValidate([...BASE, ...extra], { rows: fusedRows, title });
      crossValidate([...BASE, ...extra], { rows: fusedRows, title: `${title}(score > 0 only) `, gate: loose });
    }
  }
}

/** Area under the curve: how often a right first result's `feature` exceeds a wrong or off-topic one's (ties half). */
function auc(good: readonly number[], bad: readonly number[]): number {
  let wins = 0;
  for (const g of good) for (const b of bad) wins += g > b ? 1 : g === b ? 0.5 : 0;
  return wins / Math.max(1, good.length * bad.length);
}

/** How well each feature alone tells right first results from wrong and off-topic ones, among rows the gate passes. */
function separation(all: readonly EvidenceRow[], least = 0): void {
  const inUse = (row: EvidenceRow) =>
    confidenceOf({ ...(row.f as unknown as LeaderEvidence), unknownWord: row.f.unknownWord === 1 });
  const gated = all.filter((row) => row.f.score! > 0 && row.f.lead! >= 0.01 && inUse(row) >= least);
  console.log(`in-use probability >= ${least}:`);
  const good = gated.filter((row) => !row.offTopic && row.right);
  const wrong = gated.filter((row) => !row.offTopic && !row.right);
  const off = gated.filter((row) => row.offTopic);
  console.log(`gated rows: ${good.length} right, ${wrong.length} wrong, ${off.length} off-topic`);
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
  for (const [kind, list] of [
    ["right", good],
    ["wrong", wrong],
    ["off-topic", off],
  ] as const)
    console.log(
      `  ${kind}: median cos ${fmt(median(list.map((row) => row.f.cos!)))}, median cosMargin ${fmt(median(list.map((row) => row.f.cosMargin!)))}`,
    );
  for (const agree of [1, 0]) {
    const part = gated.filter((row) => row.f.cosFirst === agree);
    const count = (list: readonly EvidenceRow[]) => list.filter((row) => row.f.cosFirst === agree).length;
    console.log(
      `  lexical leader ${agree ? "is" : "is not"} the semantic leader: ${part.length} rows, ${count(good)} right, ` +
        `${count(wrong)} wrong, ${count(off)} off-topic`,
    );
  }
  for (const name of Object.keys(gated[0]!.f)) {
    const pick = (rowsOf: readonly EvidenceRow[]) => rowsOf.map((row) => row.f[name]!);
    console.log(
      `  ${name.padEnd(14)} AUC right vs wrong ${fmt(auc(pick(good), pick(wrong)))}  right vs off-topic ${fmt(auc(pick(good), pick(off)))}`,
    );
  }
}
