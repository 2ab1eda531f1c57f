// Module resolution hooks: core's two snapshot codec modules resolve to the row JSON ones in this folder. Registered
// after tsx, so they run first and see the URL tsx resolved (the .ts file) before swapping it.
const swaps = [
  ["/packages/core/src/snapshot/snapshot-entries-codec.", "snapshot-entries-codec.ts"],
  ["/packages/core/src/sources/folder-listings-codec.", "folder-listings-codec.ts"],
];

/** Swaps a core codec module for the row JSON one; everything else resolves as before. */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  for (const [tail, file] of swaps)
    if (resolved.url.includes(tail)) return { ...resolved, url: new URL(file, import.meta.url).href };
  return resolved;
}
