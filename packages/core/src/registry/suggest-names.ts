import { editDistance } from "../search/edit-distance.js";

/** Up to `limit` known names closest to `wanted` (edit distance counting a swap of two neighbours as one edit, or one name containing the other), for "did you mean" hints. */
export function suggestNames(wanted: string, known: readonly string[], limit = 3): string[] {
  const target = wanted.toLowerCase();
  // Typos allowed: 2, or one per 4 characters of a long name. The distance gives up just above it (returning max + 1).
  const max = Math.max(2, Math.floor(target.length / 4));
  const scored: Array<{ name: string; distance: number }> = [];
  for (const name of known) {
    const lower = name.toLowerCase();
    const distance = lower.includes(target) || target.includes(lower) ? 0 : editDistance(target, lower, max);
    if (distance <= max) scored.push({ name, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : 1));
  return scored.slice(0, limit).map((item) => item.name);
}
