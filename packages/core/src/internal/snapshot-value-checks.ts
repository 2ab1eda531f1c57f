// Checks shared by the readers of a registry snapshot file (entries and folder listings), which is untrusted input.

/** A non-negative integer in decimal without leading zeros, at most 30 digits (nanosecond times). */
export function isDecimal(value: unknown): value is string {
  if (typeof value !== "string" || value.length === 0 || value.length > 30) return false;
  if (value.length > 1 && value.charCodeAt(0) === 48) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** A file or folder name: not empty, not `.` or `..`, no separator or NUL. */
export function isPlainName(value: unknown): value is string {
  return (
    typeof value === "string" &&
    value !== "" &&
    value !== "." &&
    value !== ".." &&
    !value.includes("/") &&
    !value.includes("\0")
  );
}

/**
 * Plain names joined by "/" (a relative path that never climbs: no empty, `.` or `..` segment, no NUL): the same as
 * `path.split("/").every(isPlainName)` without the array.
 */
export function isPlainRelativePath(path: string): boolean {
  if (path === "" || path.includes("\0") || path.includes("//")) return false;
  if (path.charCodeAt(0) === 47 || path.charCodeAt(path.length - 1) === 47) return false;
  if (!path.includes(".")) return true;
  const wrapped = `/${path}/`;
  return !wrapped.includes("/./") && !wrapped.includes("/../");
}

/** An integer in `[0, length)`. */
export function isIndex(value: unknown, length: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < length;
}

/** The path a front-coded column gives: the first `shared` characters of the previous path, then `rest`. */
export function frontDecoded(previous: string, shared: unknown, rest: unknown): string | undefined {
  if (!isIndex(shared, previous.length + 1) || typeof rest !== "string") return undefined;
  return shared === 0 ? rest : previous.slice(0, shared) + rest;
}

/** The number of leading characters two paths share (for front coding). */
export function sharedPrefixLength(previous: string, path: string): number {
  let shared = 0;
  const limit = Math.min(previous.length, path.length);
  while (shared < limit && previous.charCodeAt(shared) === path.charCodeAt(shared)) shared++;
  return shared;
}
