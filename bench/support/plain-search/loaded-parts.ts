/** Records that a plain module was loaded in place of core's (the bench child reports the set, the parent checks it). */
export function markPlainPart(part: string): void {
  const holder = globalThis as { plainSearchParts?: Set<string> };
  (holder.plainSearchParts ??= new Set()).add(part);
}

/** The plain parts loaded in this process, sorted. */
export function loadedPlainParts(): string[] {
  return [...((globalThis as { plainSearchParts?: Set<string> }).plainSearchParts ?? [])].sort();
}
