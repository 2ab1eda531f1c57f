import { porterStem } from "./porter-stem.js";
import { STOP_WORDS } from "./stop-words.js";

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
export function splitWords(text: string, options: { keepCompounds?: boolean } = {}): string[] {
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
export function tokenize(text: string, options: { keepCompounds?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const word of splitWords(text, options)) {
    let stem = stemCache.get(word);
    if (stem === undefined) {
      if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
      stemCache.set(word, (stem = STOP_WORDS.has(word) ? "" : porterStem(word)));
    }
    if (stem !== "") out.push(stem);
  }
  return out;
}
