// The analyzer's table of the index terms (stems) it has met: one shared string per term and a small slot number, so
// tokenizing counts terms in typed arrays instead of Maps keyed by string. It is a cache, not an index's vocabulary:
// a slot is a scratch key within one `analyzeDocument`, never kept on a document or an
// index (an index build numbers its own terms, see index-state.ts), so the table can be emptied between documents
// (`releaseTermSlots`) and nothing built earlier notices. Tables that cache slots subscribe to `onTermSlotsReleased`.

/** Stems held before the table is emptied (between documents); bounds the table and the arrays indexed by slot. */
const TERM_SLOT_LIMIT = 1 << 18;
const slots = new Map<string, number>();
const terms: string[] = [];
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
  for (const listener of releaseListeners) listener();
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
