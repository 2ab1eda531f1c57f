/** What `CodeUnitTable.find` returns for a string it does not hold. */
export const MISSING = -2;

const MIN_BITS = 12;
const MAX_BITS = 18;

/**
 * A map from short strings, given as a range of UTF-16 code units and a hash of them, to integers: lets a scanner look
 * words up without making a substring. Open addressing with four integers per slot side by side (length, hash, start
 * in the code-unit pool, value), so a probe reads one cache line; it starts small (cache-friendly) and doubles while
 * half full, up to 2^18 slots, then starts over empty.
 */
export class CodeUnitTable {
  #bits = MIN_BITS;
  #slots = new Int32Array(4 << MIN_BITS);
  #count = 0;
  #pool = new Uint16Array(1 << 16);
  #poolUsed = 0;

  /** The value of the string c[start, end) with hash `hash`, or MISSING. */
  find(c: Uint16Array, start: number, end: number, hash: number): number {
    const size = end - start;
    const slots = this.#slots;
    const pool = this.#pool;
    const mask = (1 << this.#bits) - 1;
    let slot = (hash ^ (hash >>> this.#bits)) & mask;
    for (;;) {
      const at = slot << 2;
      const known = slots[at]!;
      if (known === 0) return MISSING;
      if (known === size && slots[at + 1] === hash) {
        const from = slots[at + 2]!;
        let k = 0;
        while (k < size && pool[from + k] === c[start + k]) k++;
        if (k === size) return slots[at + 3]!;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Adds the (absent, non-empty) string c[start, end) with hash `hash` and its value. */
  // The tokenizer's inner loop: positional numbers, no object allocated per call.
  // oxlint-disable-next-line eslint/max-params
  add(c: Uint16Array, start: number, end: number, hash: number, value: number): void {
    const size = end - start;
    if (this.#count >= 1 << (this.#bits - 1)) {
      if (this.#bits < MAX_BITS) this.#grow();
      else this.clear();
    }
    if (this.#poolUsed + size > this.#pool.length) {
      const grown = new Uint16Array(Math.max(this.#pool.length * 2, this.#poolUsed + size));
      grown.set(this.#pool);
      this.#pool = grown;
    }
    this.#pool.set(c.subarray(start, end), this.#poolUsed);
    this.#place(size, hash, this.#poolUsed, value);
    this.#poolUsed += size;
    this.#count++;
  }

  /** Forgets every string. */
  clear(): void {
    this.#slots.fill(0);
    this.#count = 0;
    this.#poolUsed = 0;
  }

  #place(size: number, hash: number, from: number, value: number): void {
    const mask = (1 << this.#bits) - 1;
    let slot = (hash ^ (hash >>> this.#bits)) & mask;
    while (this.#slots[slot << 2] !== 0) slot = (slot + 1) & mask;
    const at = slot << 2;
    this.#slots[at] = size;
    this.#slots[at + 1] = hash;
    this.#slots[at + 2] = from;
    this.#slots[at + 3] = value;
  }

  #grow(): void {
    const old = this.#slots;
    this.#bits++;
    this.#slots = new Int32Array(4 << this.#bits);
    for (let at = 0; at < old.length; at += 4)
      if (old[at] !== 0) this.#place(old[at]!, old[at + 1]!, old[at + 2]!, old[at + 3]!);
  }
}
