/**
 * The vocabulary of an index, used in place: every term in one string (code-unit order, no separator) and where each
 * starts, so a stored table is one decoded string and one Int32Array, never a string per term until one is asked for.
 * A term's id is its rank in code-unit order.
 */
export class TermTable {
  /** All terms concatenated, sorted by code units. */
  readonly text: string;
  /** Where term `id` starts in `text`; `offsets[size]` is `text.length`. */
  readonly offsets: Int32Array;

  constructor(text: string, offsets: Int32Array) {
    this.text = text;
    this.offsets = offsets;
  }

  /** A table of terms already sorted in code-unit order, without repeats. */
  static fromSorted(terms: readonly string[]): TermTable {
    const offsets = new Int32Array(terms.length + 1);
    let at = 0;
    for (let id = 0; id < terms.length; id++) {
      offsets[id] = at;
      at += terms[id]!.length;
    }
    offsets[terms.length] = at;
    return new TermTable(terms.join(""), offsets);
  }

  /** How many terms. */
  get size(): number {
    return this.offsets.length - 1;
  }

  /** The term with id `id`. */
  termAt(id: number): string {
    return this.text.slice(this.offsets[id]!, this.offsets[id + 1]!);
  }

  /** The id of `term`, or -1 (binary search comparing code units in place). */
  find(term: string): number {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const order = this.compareAt(mid, term);
      if (order === 0) return mid;
      if (order < 0) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  /** Sign of (term `id`) − `term` in code-unit order. */
  private compareAt(id: number, term: string): number {
    const text = this.text;
    const start = this.offsets[id]!;
    const length = this.offsets[id + 1]! - start;
    const common = Math.min(length, term.length);
    for (let k = 0; k < common; k++) {
      const difference = text.charCodeAt(start + k) - term.charCodeAt(k);
      if (difference !== 0) return difference;
    }
    return length - term.length;
  }
}

/** A table with no term. */
export const EMPTY_TERMS = new TermTable("", new Int32Array(1));
