import { Buffer } from "node:buffer";
import { CodeUnitTable, MISSING } from "./code-unit-table.js";

// Index terms get small integer ids so that building an index counts and groups them in typed arrays instead of Maps
// keyed by string. Ids are process-wide and only grow, until `resetTermIds` (called between documents when there are
// very many); each reset starts a new generation, and ids of an older generation are not used.

const ids = new Map<string, number>();
const terms: string[] = [];
let generation = 1;
/** Per-id marks for `termIdsOfList` (repeated terms), and the mark of its current call. */
let marks = new Int32Array(1 << 16);
let mark = 0;

/** The id of an index term (a non-empty stem); the same string object is returned by `termOfId`. */
export function termIdOf(term: string): number {
  let id = ids.get(term);
  if (id === undefined) {
    id = terms.length;
    ids.set(term, id);
    terms.push(term);
  }
  return id;
}

/** The term of an id of the current generation. */
export function termOfId(id: number): string {
  return terms[id]!;
}

/** How many ids are in use (every id is below this). */
export function termIdCount(): number {
  return terms.length;
}

/** The current generation: ids taken in another one mean nothing now. */
export function termIdGeneration(): number {
  return generation;
}

/** Forgets every id (a new generation). */
export function resetTermIds(): void {
  ids.clear();
  terms.length = 0;
  generation++;
  listTerms.clear();
}

// Stored term lists are read through a table of the terms already seen, keyed by their code units, so a known term
// costs no substring and no Map lookup.
const listTerms = new CodeUnitTable();
let listCodes = new Uint16Array(1 << 14);
let listBytes = Buffer.from(listCodes.buffer);

/**
 * The terms of a list joined by single spaces (a stored analysis), as the shared strings of their ids, and the ids;
 * undefined when a term is repeated or empty or holds whitespace (what `\s` matches). `text` must not be empty.
 */
export function termIdsOfList(text: string): { terms: string[]; ids: Int32Array } | undefined {
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
      id = termIdOf(String.fromCharCode.apply(null, c.subarray(start, i) as unknown as number[]));
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
  const out = Int32Array.from(found);
  const list = new Array<string>(out.length);
  for (let k = 0; k < out.length; k++) list[k] = terms[out[k]!]!;
  return { terms: list, ids: out };
}

/** Whitespace (`\s`) at or above U+00A0. */
function isOtherWhitespace(code: number): boolean {
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
