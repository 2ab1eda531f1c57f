// The index-building code as it was before the build was made faster (commit e48f48d: indexed-document.ts,
// index-state.ts, tokenize.ts's `tokenize`), kept verbatim but for imports so index-build-equivalence.test.ts can
// prove the new code builds exactly the same documents, posting lists and rankings. Not used outside that test.
import { porterStem } from "../porter-stem.js";
import { STOP_WORDS } from "../stop-words.js";
import { fieldFrequency, packFrequencies, type IndexedDocument } from "../indexed-document.js";
import type { IndexState } from "../index-state.js";
import type { SearchDocument } from "../search-types.js";

/** Character classes for the word scanner. */
const CharKind = { Separator: 0, Lower: 1, Upper: 2, Digit: 3, OtherLetter: 4, Cjk: 5 } as const;
type CharKind = (typeof CharKind)[keyof typeof CharKind];

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

function charKind(code: number, char: string): CharKind {
  if (code >= 97 && code <= 122) return CharKind.Lower;
  if (code >= 65 && code <= 90) return CharKind.Upper;
  if (code >= 48 && code <= 57) return CharKind.Digit;
  if (code < 128) return CharKind.Separator;
  if (
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7af) ||
    (code >= 0xf900 && code <= 0xfaff)
  ) {
    return CharKind.Cjk;
  }
  return LETTER_OR_DIGIT.test(char) ? CharKind.OtherLetter : CharKind.Separator;
}

/** Splits one letter/digit run on camelCase and letter/digit boundaries ("getHTTPResponse2" -> get, http, response, 2). */
function splitCompound(run: string, kinds: readonly CharKind[], out: string[]): number {
  let start = 0;
  let parts = 0;
  for (let i = 1; i <= run.length; i++) {
    let boundary = i === run.length;
    if (!boundary) {
      const previous = kinds[i - 1]!;
      const current = kinds[i]!;
      const next = kinds[i + 1];
      boundary =
        (current === CharKind.Upper && previous !== CharKind.Upper && previous !== CharKind.Digit) ||
        (current === CharKind.Upper && previous === CharKind.Upper && next === CharKind.Lower) ||
        (current === CharKind.Digit) !== (previous === CharKind.Digit);
    }
    if (boundary) {
      out.push(run.slice(start, i).toLowerCase());
      parts++;
      start = i;
    }
  }
  return parts;
}

/**
 * Splits text into lowercase words: on punctuation, `-`, `_`, `.`, on camelCase and letter/digit boundaries
 * (`pdfApiIO2` -> pdf, api, io, 2, plus the whole word); CJK runs become overlapping character pairs.
 * With `keepCompounds`, a camelCase or alphanumeric word stays whole. Stop words are kept.
 * @example splitWords("pdf-api-io-automation") // ["pdf", "api", "io", "automation"]
 */
function referenceSplitWords(text: string, options: { keepCompounds?: boolean } = {}): string[] {
  const out: string[] = [];
  const length = text.length;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    // Fast path: a run of ASCII lowercase letters (most of any English body) needs no per-character bookkeeping.
    if (code >= 97 && code <= 122) {
      const start = i;
      let next = code;
      while (next >= 97 && next <= 122 && ++i < length) next = text.charCodeAt(i);
      const ended = i >= length || kindOf(text, i) === CharKind.Separator || kindOf(text, i) === CharKind.Cjk;
      if (ended) {
        out.push(text.slice(start, i));
        continue;
      }
      i = start;
    }
    const kind = kindOf(text, i);
    if (kind === CharKind.Separator) {
      i++;
      continue;
    }
    const start = i;
    if (kind === CharKind.Cjk) {
      while (i < length && kindOf(text, i) === CharKind.Cjk) i++;
      if (i - start === 1) out.push(text[start]!);
      for (let j = start; j + 1 < i; j++) out.push(text.slice(j, j + 2));
      continue;
    }
    const kinds: CharKind[] = [];
    let simple = true;
    let other = false;
    while (i < length) {
      const current = kindOf(text, i);
      if (current === CharKind.Separator || current === CharKind.Cjk) break;
      if (current === CharKind.OtherLetter) other = true;
      if (
        current === CharKind.Upper ||
        (kinds.length > 0 && (current === CharKind.Digit) !== (kinds[kinds.length - 1] === CharKind.Digit))
      )
        simple = false;
      kinds.push(current);
      i++;
    }
    const run = text.slice(start, i);
    if (simple || options.keepCompounds) {
      out.push(simple && !other ? run : run.toLowerCase());
      continue;
    }
    // A camelCase or alphanumeric word is also kept whole ("NotebookLM" -> notebook, lm, notebooklm).
    if (splitCompound(run, kinds, out) > 1) out.push(run.toLowerCase());
  }
  return out;
}

function kindOf(text: string, index: number): CharKind {
  const code = text.charCodeAt(index);
  return code < 128 ? ASCII_KINDS[code]! : charKind(code, text[index]!);
}

const ASCII_KINDS: CharKind[] = Array.from({ length: 128 }, (_, code) => charKind(code, String.fromCharCode(code)));

// Words repeat heavily across skills; caching their stems ("" for stop words) makes building a large index several times faster.
const STEM_CACHE_LIMIT = 100_000;
const stemCache = new Map<string, string>();

/**
 * Turns text into index terms: words from `splitWords`, stop words dropped, each stemmed.
 * Queries pass `keepCompounds` so "PowerPoint" stays one term instead of adding "power" and "point".
 * @example tokenize("Deploying apps to Vercel") // ["deploi", "app", "vercel"]
 */
function referenceTokenize(text: string, options: { keepCompounds?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const word of referenceSplitWords(text, options)) {
    let stem = stemCache.get(word);
    if (stem === undefined) {
      if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
      stemCache.set(word, (stem = STOP_WORDS.has(word) ? "" : porterStem(word)));
    }
    if (stem !== "") out.push(stem);
  }
  return out;
}

const HEADING = /^#{1,6}[ \t]+(.+)$/gm;

/**
 * Tokenizes a document once into per-field term counts; the body string is not retained.
 * @example analyzeDocument({ name: "git-commit", description: "Commit changes", body: "# Usage", path: "" }).terms
 */
export function referenceAnalyzeDocument(document: SearchDocument): IndexedDocument {
  const headings = [...document.body.matchAll(HEADING)].map((match) => match[1]).join("\n");
  const fieldTokens = [
    referenceTokenize(document.name),
    referenceTokenize(document.description),
    referenceTokenize(headings),
    referenceTokenize(document.body),
  ];
  const counts = new Map<string, number[]>();
  fieldTokens.forEach((tokens, field) => {
    for (const token of tokens) {
      let row = counts.get(token);
      if (!row) counts.set(token, (row = [0, 0, 0, 0]));
      row[field]!++;
    }
  });
  const terms = [...counts.keys()];
  return {
    name: document.name,
    description: document.description,
    path: document.path,
    lengths: fieldTokens.map((tokens) => tokens.length),
    terms,
    packed: Uint32Array.from(terms, (term) => packFrequencies(counts.get(term)!)),
    scratch: { pass: 0, total: 0, slot: 0, best: 0, names: 0 },
  };
}

function inHead(packed: number): boolean {
  return fieldFrequency(packed, 0) > 0 || fieldFrequency(packed, 1) > 0;
}

/**
 * Applies removals and additions to a state, copying only the posting lists of touched terms.
 * `added` documents replace same-named ones; `removed` names that are absent are ignored.
 */
export function referenceApplyChanges(
  base: IndexState,
  removedNames: Iterable<string>,
  added: readonly IndexedDocument[],
): IndexState {
  const docs = new Map(base.docs);
  const removed = new Set<IndexedDocument>();
  const drop = (name: string): void => {
    const existing = docs.get(name);
    if (existing) {
      removed.add(existing);
      docs.delete(name);
    }
  };
  for (const name of removedNames) drop(name);
  const addedByName = new Map<string, IndexedDocument>();
  for (const document of added) addedByName.set(document.name, document);
  for (const name of addedByName.keys()) drop(name);

  const additions = new Map<string, { docs: IndexedDocument[]; packed: number[] }>();
  const lengthSums = [...base.lengthSums];
  for (const document of removed) document.lengths.forEach((length, f) => (lengthSums[f]! -= length));
  for (const document of addedByName.values()) {
    docs.set(document.name, document);
    document.lengths.forEach((length, f) => (lengthSums[f]! += length));
    document.terms.forEach((term, i) => {
      let list = additions.get(term);
      if (!list) additions.set(term, (list = { docs: [], packed: [] }));
      list.docs.push(document);
      list.packed.push(document.packed[i]!);
    });
  }

  const touched = new Set<string>(additions.keys());
  for (const document of removed) for (const term of document.terms) touched.add(term);
  const postings = new Map(base.postings);
  const headTerms = new Map(base.headTerms);
  for (const term of touched) {
    const old = base.postings.get(term);
    const extra = additions.get(term);
    if (!old && extra) {
      // A term new to the index (every term of a first build): its additions are the whole list.
      postings.set(term, { docs: extra.docs, packed: Uint32Array.from(extra.packed) });
      let head = 0;
      for (const packed of extra.packed) if (inHead(packed)) head++;
      if (head > 0) headTerms.set(term, head);
      continue;
    }
    const next = { docs: [] as IndexedDocument[], packed: [] as number[] };
    if (old) {
      for (let i = 0; i < old.docs.length; i++) {
        if (removed.has(old.docs[i]!)) continue;
        next.docs.push(old.docs[i]!);
        next.packed.push(old.packed[i]!);
      }
    }
    if (extra) {
      for (let i = 0; i < extra.docs.length; i++) {
        next.docs.push(extra.docs[i]!);
        next.packed.push(extra.packed[i]!);
      }
    }
    if (next.docs.length === 0) postings.delete(term);
    else postings.set(term, { docs: next.docs, packed: Uint32Array.from(next.packed) });
    const head = next.packed.filter(inHead).length;
    if (head > 0) headTerms.set(term, head);
    else headTerms.delete(term);
  }
  return { docs, postings, lengthSums, headTerms };
}
