/**
 * A deep copy of a JSON value (as `JSON.parse` makes them: plain objects, arrays, strings, numbers, booleans, null),
 * each object's keys in the same order; a `__proto__` key stays an own property, as `JSON.parse` leaves it.
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyJson((value as Record<string, unknown>)[key]);
    if (key === "__proto__")
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy as T;
}
