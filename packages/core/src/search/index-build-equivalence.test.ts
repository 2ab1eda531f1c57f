// Differential test of the fast index build: the documents it analyzes (typed-array scanner, term slots) are exactly those
// the plain tokenizer (`tokenize`: a word list, a Map of counts) gives, and the posting lists it groups (term ids of one
// build, one pair of arrays) are exactly those of a plain loop over the documents, fresh, restored from the stored form
// through the stored binary form and after incremental updates; on the real corpus, on a generated tree and on hostile generated text, for every query
// of the development sets. Ranking itself is shared, so this holds whatever the scoring does.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CORPUS_AVAILABLE, CORPUS_SKILLS_DIR, REPO_ROOT, SHARED_DIR } from "../../../../test/support/shared-paths.js";
import { loadCorpus } from "./__fixtures__/load-corpus.js";
import { applyChanges, EMPTY_STATE, type IndexState } from "./index-state.js";
import { analyzeDocument, fieldFrequency, packFrequencies, type IndexedDocument } from "./indexed-document.js";
import { confidenceOf } from "./confidence-model.js";
import { nameMatch, nameMissing } from "./name-match.js";
import { hasUnknownWord } from "./unknown-words.js";
import { buildQuerySlots } from "./query-slots.js";
import { rankDocuments } from "./rank-documents.js";
import { createSearchIndex } from "./search-index.js";
import { resolveSearchIndexOptions } from "./search-index-options.js";
import type { SearchDocument } from "./search-types.js";
import { termSlotCount } from "./term-slots.js";
import { tokenize } from "./tokenize.js";
import { decodeSearchIndex, encodeSearchIndex } from "../snapshot/search-index-codec.js";

const options = resolveSearchIndexOptions({});
const fixture = (name: string) => JSON.parse(readFileSync(join(REPO_ROOT, "test/fixtures", name), "utf8")) as unknown;
const queries = [
  ...(fixture("search-development-queries-a.json") as Array<{ query: string }>).map((item) => item.query),
  ...(fixture("search-development-queries-b.json") as { queries: Array<{ query: string }> }).queries.map(
    (item) => item.query,
  ),
];

const analysis = (document: IndexedDocument) => ({
  name: document.name,
  lengths: [...document.lengths],
  terms: [...document.terms],
  packed: [...document.packed],
});

const HEADING = /^#{1,6}[ \t]+(.+)$/gm;

/** The analysis by the plain tokenizer: each field's term list, counted in a Map (terms in order of first sight). */
function referenceAnalysis(document: SearchDocument) {
  const headings = [...document.body.matchAll(HEADING)].map((match) => match[1]).join("\n");
  const fields = [document.name, document.description, headings, document.body].map((text) => tokenize(text));
  const counts = new Map<string, number[]>();
  fields.forEach((terms, field) => {
    for (const term of terms) {
      if (!counts.has(term)) counts.set(term, [0, 0, 0, 0]);
      counts.get(term)![field]!++;
    }
  });
  const terms = [...counts.keys()];
  const packed = terms.map((term) => packFrequencies(counts.get(term)!));
  return { name: document.name, lengths: fields.map((fieldTerms) => fieldTerms.length), terms, packed };
}

type Content = ReturnType<typeof stateContent>;

/**
 * A state's content in a comparable form: posting lists as (name, packed) pairs (in order, or sorted for a state built
 * by updates, whose lists end with the documents added last), head terms and terms sorted.
 */
function stateContent(state: IndexState, sortLists = false) {
  const postings: string[][] = [];
  const headTerms: Array<[string, number]> = [];
  for (let id = 0; id < state.terms.size; id++) {
    const pairs: string[] = [];
    for (let at = state.starts[id]!; at < state.starts[id + 1]!; at++)
      pairs.push(`${state.docs.nameOf(state.postingDocs[at]!)}:${state.postingPacked[at]}`);
    const term = state.terms.termAt(id);
    postings.push([term, (sortLists ? pairs.sort() : pairs).join(" ")]);
    if (state.headCounts[id]! > 0) headTerms.push([term, state.headCounts[id]!]);
  }
  postings.sort(([a], [b]) => (a! < b! ? -1 : 1));
  headTerms.sort(([a], [b]) => (a < b ? -1 : 1));
  const docs = Array.from({ length: state.count }, (_, id) => state.docs.nameOf(id)).sort();
  return { docs, postings, headTerms, lengthSums: [...state.lengthSums] };
}

/** The state read back from its stored binary form (the documents' details kept from the original). */
function storedAndRead(state: IndexState): IndexState {
  const decoded = decodeSearchIndex(
    encodeSearchIndex(state, () => ({ hash: "0".repeat(64), name: "", description: "" })),
  );
  if (!decoded) throw new Error("a stored index was refused");
  return { ...decoded.state, docs: state.docs };
}

/** The content an index of these documents must have (later same-named documents replace earlier ones), by plain loops. */
function referenceContent(documents: readonly IndexedDocument[], sortLists = false): Content {
  const byName = new Map(documents.map((document) => [document.name, document]));
  const lists = new Map<string, string[]>();
  const lengthSums = [0, 0, 0, 0];
  for (const document of byName.values()) {
    document.lengths.forEach((length, field) => (lengthSums[field]! += length));
    document.terms.forEach((term, i) => {
      if (!lists.has(term)) lists.set(term, []);
      lists.get(term)!.push(`${document.name}:${document.packed[i]}`);
    });
  }
  const head = (pair: string) => [0, 1].some((field) => fieldFrequency(Number(pair.split(":").pop()), field) > 0);
  const postings = [...lists]
    .map(([term, pairs]) => [term, (sortLists ? pairs.sort() : pairs).join(" ")])
    .sort(([a], [b]) => (a! < b! ? -1 : 1));
  const headTerms = [...lists]
    .map(([term, pairs]) => [term, pairs.filter(head).length] as [string, number])
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return { docs: [...byName.keys()].sort(), postings, headTerms, lengthSums };
}

/** Every document a query matches, with its exact score, in ranking order. */
function ranking(state: IndexState, query: string): Array<{ name: string; score: number }> {
  const slots = buildQuerySlots(query, state, options.synonyms, options.expansion);
  return rankDocuments(state, slots, options.ranking).map(({ id, score }) => ({ name: state.docs.nameOf(id), score }));
}

function expectSameIndex(documents: SearchDocument[]): void {
  const fresh = documents.map(analyzeDocument);
  const reference = documents.map(referenceAnalysis);
  expect(fresh.map(analysis)).toEqual(reference);
  const state = applyChanges(EMPTY_STATE, [], fresh);
  expect(stateContent(state, true)).toEqual(referenceContent(fresh, true));
  // Read back from the stored binary form: the same index, the same rankings with the same scores.
  const read = storedAndRead(state);
  expect(stateContent(read)).toEqual(stateContent(state));
  const index = createSearchIndex(documents);
  for (const query of queries) {
    const expected = ranking(state, query);
    expect(ranking(read, query), query).toEqual(expected);
    const slots = buildQuerySlots(query, state, options.synonyms, options.expansion);
    const unknownWord = hasUnknownWord(slots, state);
    const firstId = rankDocuments(state, slots, options.ranking, 1)[0]?.id ?? -1;
    const leaderNameMatch = firstId < 0 ? 0 : nameMatch(state, slots, firstId);
    const leaderNameMissing = firstId < 0 ? 1 : nameMissing(state, slots, state.docs.nameOf(firstId));
    // The public results (score, order, `confident`) over the whole ranking.
    const results = index.search(query, { limit: documents.length });
    expect(
      results.map(({ name, score, confident }) => ({ name, score, confident })),
      query,
    ).toEqual(
      expected
        .filter(({ score }) => score > 0)
        .map(({ name, score }, i, all) => ({
          name,
          score,
          // Only the first can be confident: the model, from its score, its lead over the second, the query word its
          // name holds, how much of its name the query leaves out and the unknown-word flag, clears the threshold, and
          // it leads by the margin.
          confident:
            i === 0 &&
            score - (all[1]?.score ?? 0) >= options.confidence.margin &&
            confidenceOf({
              score,
              lead: score - (all[1]?.score ?? 0),
              nameMatch: leaderNameMatch,
              nameMissing: leaderNameMissing,
              unknownWord,
            }) >= options.confidence.threshold,
        })),
    );
  }
  // Incremental updates: half the documents, then the rest added, some replaced by edited copies and some removed;
  // the same content and rankings as one build of the documents that are left.
  const half = Math.floor(documents.length / 2);
  const edited = documents.slice(0, 20).map((document) => ({ ...document, body: `${document.body}\nEdited v2 API.` }));
  const removed = documents.slice(20, 40).map((document) => document.name);
  const incremental = applyChanges(
    applyChanges(EMPTY_STATE, [], documents.slice(0, half).map(analyzeDocument)),
    removed,
    [...documents.slice(half), ...edited].map(analyzeDocument),
  );
  const left = [...documents.slice(40), ...edited].map(analyzeDocument);
  expect(stateContent(incremental, true)).toEqual(referenceContent(left, true));
  const rebuilt = applyChanges(EMPTY_STATE, [], left);
  for (const query of queries.slice(0, 40)) expect(ranking(incremental, query)).toEqual(ranking(rebuilt, query));
}

/** A seeded generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Pieces that exercise every path of the scanner: case shapes, digits, non-ASCII letters and digits, CJK, emoji,
// lone surrogates, separators of every kind, stop words, headings.
const PIECES = [
  "pdf",
  "PDF",
  "Pdf",
  "pDF",
  "getHTTPResponse2",
  "NotebookLM",
  "v2",
  "V2",
  "2024",
  "A",
  "a",
  "I",
  "the",
  "The",
  "THE",
  "café",
  "Café",
  "naïve",
  "über",
  "x²",
  "٣",
  "日本語",
  "データ",
  "한국어",
  "🙂",
  "\uD800",
  "\uDC00x",
  "_",
  "-",
  ".",
  "/",
  "#",
  "\n",
  "\n# ",
  "\n## Usage ",
  "\t",
  " ",
  "  ",
  "ABc",
  "AbC",
  "aB",
  "deployment",
  "Deploying",
  "running",
  "ran",
  "s00093",
  "S00093a",
  "x1y2",
  "ĀĒĪ",
  "ǅungla",
  "İstanbul",
  "ß",
  "ﬁle",
];

function hostileText(next: () => number, words: number): string {
  let text = "";
  for (let i = 0; i < words; i++) {
    const piece = PIECES[Math.floor(next() * PIECES.length)]!;
    text += piece + (next() < 0.6 ? " " : "");
  }
  return text;
}

describe("the fast index build gives exactly the plain build's index and rankings", () => {
  it("on hostile generated text (every scanner path, word-table overflow, term-table release)", () => {
    const next = random(12_345);
    const documents: SearchDocument[] = Array.from({ length: 300 }, (_, i) => ({
      name: `doc-${i}-${hostileText(next, 2).replace(/\s/g, "")}`,
      description: hostileText(next, 12),
      body: hostileText(next, 400),
      path: `/hostile/${i}`,
    }));
    // Far more distinct words than the word table holds, so it is cleared mid-document.
    const letters = (i: number) =>
      [...i.toString(26)].map((digit) => String.fromCharCode(97 + parseInt(digit, 26))).join("");
    const many = Array.from({ length: 150_000 }, (_, i) => `w${letters(i)}`);
    expect(new Set(many).size).toBe(150_000);
    documents.push({ name: "many-words", description: "distinct words", body: many.join(" "), path: "/many" });
    // With it, more terms than the analyzer's term table keeps, so it is emptied before the next document.
    const more = many.map((word) => `v${word}`);
    documents.push({ name: "more-words", description: "distinct words", body: more.join(" "), path: "/more" });
    expect(documents.slice(0, 300).map(analyzeDocument).map(analysis)).toEqual(
      documents.slice(0, 300).map(referenceAnalysis),
    );
    const kept = documents.slice(0, 50).map(analyzeDocument);
    const keptState = applyChanges(EMPTY_STATE, [], kept);
    expect(stateContent(storedAndRead(keptState), true)).toEqual(referenceContent(kept, true));
    for (const last of documents.slice(300)) expect(analysis(analyzeDocument(last))).toEqual(referenceAnalysis(last));
    expect(termSlotCount()).toBeGreaterThan(200_000);
    // And again after the tables were emptied (slots given out anew, in another order): first words the word table met
    // last before the release (their old slots now name other terms), then analyses, stored analyses read back, and the
    // index of analyses taken before the release with analyses taken after it.
    const tail = { name: "tail", description: "", body: more.slice(-2000).join(" "), path: "/tail" };
    expect(analysis(analyzeDocument(tail))).toEqual(referenceAnalysis(tail));
    expect(termSlotCount()).toBeLessThan(100_000);
    expect(documents.slice(0, 50).map(analyzeDocument).map(analysis)).toEqual(
      documents.slice(0, 50).map(referenceAnalysis),
    );
    const mixed = [...kept.slice(0, 25), ...documents.slice(25, 50).map(analyzeDocument), ...kept.slice(10, 30)];
    expect(stateContent(applyChanges(EMPTY_STATE, [], mixed), true)).toEqual(referenceContent(mixed, true));
    // A stored state updated after the release: the same as one build.
    const updated = applyChanges(storedAndRead(keptState), [], documents.slice(25, 50).map(analyzeDocument));
    expect(stateContent(updated, true)).toEqual(referenceContent(mixed, true));
    // Documents hold no term ids (an index build numbers its own terms): nothing ties an analysis to a table.
    expect(Object.keys(kept[0]!).sort()).toEqual(["description", "lengths", "name", "packed", "path", "terms"]);
  });

  describe.skipIf(!CORPUS_AVAILABLE)("on real skills (skipped when ../shared/corpus is not found)", () => {
    const trees: string[] = [];
    afterAll(() => {
      for (const tree of trees) rmSync(tree, { recursive: true, force: true });
    });

    it("the corpus, over every development query", () => {
      const documents = loadCorpus(CORPUS_SKILLS_DIR).map((skill) => skill.document);
      expect(documents.length).toBeGreaterThanOrEqual(180);
      expectSameIndex(documents);
    });

    it("a generated tree (bench-peers gen.mjs: renamed copies), over every development query", async () => {
      const gen = (await import(join(SHARED_DIR, "bench-peers/gen.mjs"))) as {
        generateTree(n: number, out: string, options: { force: boolean }): unknown;
      };
      const tree = mkdtempSync(join(tmpdir(), "skillgraph-index-equivalence-"));
      trees.push(tree);
      gen.generateTree(400, tree, { force: true });
      const documents = loadCorpus(tree).map((skill) => skill.document);
      expect(documents.length).toBe(400);
      expectSameIndex(documents);
    });
  });
});
