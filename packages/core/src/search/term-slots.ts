import { Buffer } from "node:buffer";
import { CodeUnitTable, MISSING } from "./code-unit-table.js";

// The analyzer's table of the index terms (stems) it has met: one shared string per term and a small slot number, so
// tokenizing counts terms in typed arrays instead of Maps keyed by string. It is a cache, not an index's vocabulary:
// a slot is a scratch key within one `analyzeDocument` (or one stored term list read), never kept on a document or an
// index (an index build numbers its own terms, see index-state.ts), so the table can be emptied between documents
// (`releaseTermSlots`) and nothing built earlier notices. Tables that cache slots subscribe to `onTermSlotsReleased`.

/** Stems held before the table is emptied (between documents); bounds the table and the arrays indexed by slot. */
const TERM_SLOT_LIMIT = 1 << 18;
const slots = new Map<string, number>();
const terms: string[] = [];
/** Per-slot marks for `termsOfList` (repeated terms), and the mark of its current call. */
let marks = new Int32Array(1 << 16);
let mark = 0;
const releaseListeners: Array<() => void> = [];

/** The slot of an index term (a non-empty stem); the same string object is returned by `termOfSlot`. */
export function termSlotOf(term: string): number {
  let slot = slots.get(term);
  if (slot === undefined) {
    slot = terms.length;
    slots.set(term, slot);
    terms.push(term);
  }
  return slot;
}

/** The term in a slot. */
export function termOfSlot(slot: number): string {
  return terms[slot]!;
}

/** How many slots are in use (every slot is below this). */
export function termSlotCount(): number {
  return terms.length;
}

/** Calls `listener` whenever the table is emptied: a cache of slots must then forget them all. */
export function onTermSlotsReleased(listener: () => void): void {
  releaseListeners.push(listener);
}

/** Empties the table (and tells the listeners) when it holds `TERM_SLOT_LIMIT` terms; call only between documents. */
export function releaseTermSlots(): void {
  if (terms.length < TERM_SLOT_LIMIT) return;
  slots.clear();
  terms.length = 0;
  listTerms.clear();
  for (const listener of releaseListeners) listener();
}

// Stored term lists are read through a table of the terms already seen, keyed by their code units, so a known term
// costs no substring and no Map lookup.
const listTerms = new CodeUnitTable();
let listCodes = new Uint16Array(1 << 14);
let listBytes = Buffer.from(listCodes.buffer);

/**
 * The terms of a list joined by single spaces (a stored analysis), as shared strings; undefined when a term is repeated
 * or empty or holds whitespace (what `\s` matches). `text` must not be empty.
 */
export function termsOfList(text: string): string[] | undefined {
  const length = text.length;
  if (length > listCodes.length) {
    listCodes = new Uint16Array(Math.max(length, listCodes.length * 2));
    listBytes = Buffer.from(listCodes.buffer);
  }
  listBytes.write(text, 0, "utf16le");
  const c = listCodes;
  if (++mark >= 0x7fffffff) {
    marks.fill(0);
    mark = 1;
  }
  releaseTermSlots();
  const found: number[] = [];
  let i = 0;
  while (i <= length) {
    const start = i;
    let hash = 0;
    for (; i < length; i++) {
      const code = c[i]!;
      if (code === 32) break;
      if (code <= 32 ? code >= 9 && code <= 13 : code >= 0xa0 && isOtherWhitespace(code)) return undefined;
      hash = (Math.imul(hash, 31) + code) | 0;
    }
    if (i === start) return undefined;
    let id = listTerms.find(c, start, i, hash);
    if (id === MISSING) {
      id = termSlotOf(String.fromCharCode.apply(null, c.subarray(start, i) as unknown as number[]));
      listTerms.add(c, start, i, hash, id);
    }
    if (id >= marks.length) {
      const grown = new Int32Array(Math.max(terms.length, id + 1) * 2);
      grown.set(marks);
      marks = grown;
    }
    if (marks[id] === mark) return undefined;
    marks[id] = mark;
    found.push(id);
    i++;
  }
  const list = new Array<string>(found.length);
  for (let k = 0; k < found.length; k++) list[k] = terms[found[k]!]!;
  return list;
}

/** Whitespace (`\s`) at or above U+00A0. */
export function isOtherWhitespace(code: number): boolean {
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
