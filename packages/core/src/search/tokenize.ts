import { porterStem } from "./porter-stem.js";
import { STOP_WORDS } from "./stop-words.js";
import { Buffer } from "node:buffer";
import { CodeUnitTable, MISSING } from "./code-unit-table.js";
import { onTermSlotsReleased, termOfSlot, termSlotOf } from "./term-slots.js";

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
    if (kindOf(text, i) === CharKind.Separator) {
      i++;
      continue;
    }
    i = scanRun(text, i, options.keepCompounds === true, out);
  }
  return out;
}

/** Appends the words of the letter/digit (or CJK) run starting at `start` (not a separator); returns where it ends. */
function scanRun(text: string, start: number, keepCompounds: boolean, out: string[]): number {
  const length = text.length;
  let i = start;
  if (kindOf(text, i) === CharKind.Cjk) {
    while (i < length && kindOf(text, i) === CharKind.Cjk) i++;
    if (i - start === 1) out.push(text[start]!);
    for (let j = start; j + 1 < i; j++) out.push(text.slice(j, j + 2));
    return i;
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
  if (simple || keepCompounds) {
    out.push(simple && !other ? run : run.toLowerCase());
    return i;
  }
  // A camelCase or alphanumeric word is also kept whole ("NotebookLM" -> notebook, lm, notebooklm).
  if (splitCompound(run, kinds, out) > 1) out.push(run.toLowerCase());
  return i;
}

function kindOf(text: string, index: number): CharKind {
  const code = text.charCodeAt(index);
  return code < 128 ? ASCII_KINDS[code]! : charKind(code, text[index]!);
}

const ASCII_KINDS: CharKind[] = Array.from({ length: 128 }, (_, code) => charKind(code, String.fromCharCode(code)));

// Words repeat heavily across skills; caching their stems ("" for stop words) makes building a large index several times faster.
const STEM_CACHE_LIMIT = 100_000;
const stemCache = new Map<string, string>();

/** The index term of one word: "" for a stop word, else its stem (cached). */
function stemOf(word: string): string {
  let stem = stemCache.get(word);
  if (stem === undefined) {
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemCache.set(word, (stem = STOP_WORDS.has(word) ? "" : porterStem(word)));
  }
  return stem;
}

/**
 * Turns text into index terms: words from `splitWords`, stop words dropped, each stemmed.
 * Queries pass `keepCompounds` so "PowerPoint" stays one term instead of adding "power" and "point".
 * @example tokenize("Deploying apps to Vercel") // ["deploi", "app", "vercel"]
 */
export function tokenize(text: string, options: { keepCompounds?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const word of splitWords(text, options)) {
    const stem = stemOf(word);
    if (stem !== "") out.push(stem);
  }
  return out;
}

// Documents are tokenized from a scratch copy of their UTF-16 code units through a table of the plain ASCII words already
// seen (lowercase, Capitalized, UPPERCASE or all digits), probed with a hash computed while scanning: such a word costs
// no substring, no string hashing and no Map lookup. Each term comes with its slot in the analyzer's term table
// (term-slots.ts), a scratch key for counting.
/** Lowercased plain word -> its term slot (-1: stop word). */
const words = new CodeUnitTable();
onTermSlotsReleased(() => words.clear());
let codes = new Uint16Array(1 << 14);
let codeBytes = Buffer.from(codes.buffer);
const otherWords: string[] = [];
const LOWER_BIT = 1;
const UPPER_BIT = 2;
const DIGIT_BIT = 4;
/** For ASCII codes: the bit of a lowercase letter, capital or digit, 0 for anything else. */
const ASCII_WORD_BITS = Uint8Array.from({ length: 128 }, (_, code) =>
  code >= 97 && code <= 122
    ? LOWER_BIT
    : code >= 65 && code <= 90
      ? UPPER_BIT
      : code >= 48 && code <= 57
        ? DIGIT_BIT
        : 0,
);

/** The slot of a stem from `stemOf`, -1 for the empty stop-word stem. */
function stemSlot(stem: string): number {
  return stem === "" ? -1 : termSlotOf(stem);
}

/**
 * Calls `visit` with each index term of `text` in order and its slot (term-slots.ts, valid until the next
 * `releaseTermSlots`): exactly the terms `tokenize(text)` returns (without `keepCompounds`), but without building the
 * word list, for tokenizing whole documents.
 * @example visitTerms("Deploying apps", (term) => terms.push(term)) // deploi, app
 */
export function visitTerms(text: string, visit: (term: string, slot: number) => void): void {
  const length = text.length;
  const c = codeUnitsOf(text);
  let i = 0;
  while (i < length) {
    const code = c[i]!;
    if (code < 128 && ASCII_WORD_BITS[code] !== 0) {
      // A run of ASCII letters and digits: plain words take the table, anything else the general scanner.
      const end = visitPlainWord(text, c, i, visit);
      if (end >= 0) {
        i = end;
        continue;
      }
    } else if (code < 128) {
      // ASCII punctuation and spaces, skipped in one go.
      i++;
      while (i < length && c[i]! < 128 && ASCII_WORD_BITS[c[i]!] === 0) i++;
      continue;
    } else if (kindOf(text, i) === CharKind.Separator) {
      i++;
      continue;
    }
    otherWords.length = 0;
    i = scanRun(text, i, false, otherWords);
    for (const word of otherWords) {
      const slot = stemSlot(stemOf(word));
      if (slot >= 0) visit(termOfSlot(slot), slot);
    }
  }
}

/** The scratch copy of `text`'s UTF-16 code units (valid until the next call). */
function codeUnitsOf(text: string): Uint16Array {
  if (text.length > codes.length) {
    codes = new Uint16Array(Math.max(text.length, codes.length * 2));
    codeBytes = Buffer.from(codes.buffer);
  }
  codeBytes.write(text, 0, "utf16le");
  return codes;
}

/**
 * Visits the term of the run of ASCII letters and digits at `start` when it is a plain word (all lowercase, all
 * digits, all capitals, or one leading capital then lowercase) that ends there, through the word table, and returns
 * where it ends; -1 (nothing visited) for any other run, which the general scanner then reads.
 */
function visitPlainWord(
  text: string,
  c: Uint16Array,
  start: number,
  visit: (term: string, slot: number) => void,
): number {
  const length = text.length;
  let i = start;
  let hash = 0;
  let seen = 0;
  let upper = 0;
  for (; i < length; i++) {
    const next = c[i]!;
    const bit = next < 128 ? ASCII_WORD_BITS[next]! : 0;
    if (bit === 0) break;
    seen |= bit;
    if (bit === UPPER_BIT) {
      upper++;
      hash = (Math.imul(hash, 31) + (next | 32)) | 0;
    } else hash = (Math.imul(hash, 31) + next) | 0;
  }
  const ended = i >= length || c[i]! < 128 || isSeparatorOrCjk(text, i);
  const plain =
    seen === LOWER_BIT ||
    seen === DIGIT_BIT ||
    seen === UPPER_BIT ||
    (seen === (LOWER_BIT | UPPER_BIT) && upper === 1 && ASCII_WORD_BITS[c[start]!] === UPPER_BIT);
  if (!ended || !plain) return -1;
  if (upper > 0) for (let k = start; k < i; k++) c[k] = c[k]! | 32;
  let slot = words.find(c, start, i, hash);
  if (slot === MISSING) {
    slot = stemSlot(stemOf(String.fromCharCode.apply(null, c.subarray(start, i) as unknown as number[])));
    words.add(c, start, i, hash, slot);
  }
  if (slot >= 0) visit(termOfSlot(slot), slot);
  return i;
}

function isSeparatorOrCjk(text: string, index: number): boolean {
  const kind = kindOf(text, index);
  return kind === CharKind.Separator || kind === CharKind.Cjk;
}
