// Index terms get small integer ids so that building an index counts and groups them in typed arrays instead of Maps
// keyed by string. Ids are process-wide and only grow, until `resetTermIds` (called between documents when there are
// very many); each reset starts a new generation, and ids of an older generation are not used.

const ids = new Map<string, number>();
const terms: string[] = [];
let generation = 1;
/** Per-id marks for `distinctTermIds`, and the mark of its current call. */
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
}

/**
 * The ids of a list of terms, each term replaced in `terms` by the shared string of its id; undefined when a term is
 * repeated or empty (a corrupt stored analysis).
 */
export function distinctTermIds(list: string[]): Int32Array | undefined {
  const out = new Int32Array(list.length);
  if (++mark >= 0x7fffffff) {
    marks.fill(0);
    mark = 1;
  }
  for (let i = 0; i < list.length; i++) {
    const term = list[i]!;
    if (term === "") return undefined;
    const id = termIdOf(term);
    if (id >= marks.length) {
      const grown = new Int32Array(Math.max(terms.length, id + 1) * 2);
      grown.set(marks);
      marks = grown;
    }
    if (marks[id] === mark) return undefined;
    marks[id] = mark;
    out[i] = id;
    list[i] = terms[id]!;
  }
  return out;
}
