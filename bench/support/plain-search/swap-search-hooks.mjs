// Module resolution hooks: each part named in PLAIN_SEARCH swaps one core search module for its plain version in this
// folder. Registered after tsx, so they see the URL tsx resolved (the .ts file). A plain module that re-exports the
// core one (to override one function) imports it unswapped.
const PARTS = {
  frequencies: ["/packages/core/src/search/indexed-document.", "plain-indexed-document.ts"],
  "word-table": ["/packages/core/src/search/tokenize.", "plain-tokenize.ts"],
};
let swaps = [];

/** Reads which parts to swap (the `data` of `register`). */
export async function initialize(data) {
  const names = (data?.parts ?? "").split(",").filter((name) => name !== "");
  for (const name of names) if (!(name in PARTS)) throw new Error(`PLAIN_SEARCH: unknown part '${name}'`);
  swaps = names.map((name) => PARTS[name]);
}

/** Swaps a core search module for its plain version; everything else resolves as before. */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  for (const [tail, file] of swaps) {
    const plain = new URL(file, import.meta.url).href;
    if (resolved.url.includes(tail) && context.parentURL !== plain) return { ...resolved, url: plain };
  }
  return resolved;
}
