/** Up to `limit` known names closest to `wanted` (edit distance, or sharing a prefix/substring), for "did you mean" hints. */
export function suggestNames(wanted: string, known: readonly string[], limit = 3): string[] {
  const target = wanted.toLowerCase();
  const scored: Array<{ name: string; distance: number }> = [];
  for (const name of known) {
    const lower = name.toLowerCase();
    const distance = lower.includes(target) || target.includes(lower) ? 0 : editDistance(target, lower, 3);
    if (distance <= Math.max(2, Math.floor(target.length / 4))) scored.push({ name, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : 1));
  return scored.slice(0, limit).map((item) => item.name);
}

/** Levenshtein distance, giving up (returning `cap + 1`) once it exceeds `cap`. */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > cap) return cap + 1;
    previous = current;
  }
  return previous[b.length]!;
}
