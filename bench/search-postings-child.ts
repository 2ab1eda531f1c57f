// One sample of bench/search-postings.ts in a fresh process (run with --expose-gc; the parent picks typed or plain
// parts with PLAIN_SEARCH and bench/support/plain-search/register.mjs). Modes:
//   index DIR QUERIES            build a search index over the skills under DIR, then the first search and every query
//   write DIR SNAPSHOT           build the registry snapshot SNAPSHOT with its stored search index beside it
//   restore DIR SNAPSHOT QUERIES cold start from SNAPSHOT, then the first search (restores the stored analyses and
//                                builds the index from them) and every query
// Prints one JSON line: CPU times (user + system, ms), retained memory of the built index (index mode), the plain
// parts loaded and a digest of every query's ranking (names and exact scores).
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { createSkillRegistry, skillsFromDirectory } from "../packages/core/src/index.js";
import { loadCorpus } from "../packages/core/src/search/__fixtures__/load-corpus.js";
import { createSearchIndex } from "../packages/core/src/search/search-index.js";
import type { SearchOptions, SearchResult } from "../packages/core/src/search/search-types.js";
import { loadedPlainParts } from "./support/plain-search/loaded-parts.js";

const [mode, dir, file, queriesFile] = process.argv.slice(2) as [string, string, string, string | undefined];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");

function cpuMs<T>(run: () => T): { value: T; ms: number } {
  const start = process.cpuUsage();
  const value = run();
  const used = process.cpuUsage(start);
  return { value, ms: (used.user + used.system) / 1000 };
}

function memory(): { heap: number; buffers: number } {
  gc!();
  gc!();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, buffers: usage.arrayBuffers };
}

/** Runs every query (limit 10) and digests the rankings: names and exact scores, in order. */
function searchAll(search: (query: string, options: SearchOptions) => SearchResult[], queries: string[]) {
  const hash = createHash("sha256");
  const { ms } = cpuMs(() => {
    for (const query of queries) {
      const results = search(query, { limit: 10 });
      hash.update(`${query}\0${results.map((result) => `${result.name}\0${result.score}`).join("\0")}\n`);
    }
  });
  return { ms, digest: hash.digest("hex") };
}

const queries = queriesFile ? (JSON.parse(readFileSync(queriesFile, "utf8")) as string[]) : [];
let out: Record<string, unknown>;
if (mode === "index") {
  const documents = loadCorpus(dir).map((skill) => skill.document);
  const before = memory();
  const build = cpuMs(() => createSearchIndex(documents));
  const after = memory();
  const index = build.value;
  const first = cpuMs(() => index.search(queries[0]!, { limit: 10 }));
  const batch = searchAll((query, options) => index.search(query, options), queries);
  out = {
    count: index.size,
    buildMs: build.ms,
    retainedHeap: after.heap - before.heap,
    retainedBuffers: after.buffers - before.buffers,
    firstSearchMs: first.ms,
    batchMs: batch.ms,
    digest: batch.digest,
  };
} else if (mode === "write") {
  await (
    await createSkillRegistry({ sources: [skillsFromDirectory(dir)], snapshot: file, searchIndex: "eager" })
  ).close();
  out = { searchIndexBytes: statSync(`${file}.search`).size };
} else {
  const storedAt = statSync(`${file}.search`).mtimeMs;
  const registry = await createSkillRegistry({ sources: [skillsFromDirectory(dir)], snapshot: file });
  const first = cpuMs(() => registry.search(queries[0]!, { limit: 10 }));
  const batch = searchAll((query, options) => registry.search(query, options), queries);
  const count = registry.list().length;
  await registry.close();
  // A skill analyzed from its file (a stored analysis refused) would be written back: the index was not all restored.
  if (statSync(`${file}.search`).mtimeMs !== storedAt)
    throw new Error("the stored search index was not fully restored");
  out = { count, restoreMs: first.ms, batchMs: batch.ms, digest: batch.digest };
}
process.stdout.write(`${JSON.stringify({ mode, parts: loadedPlainParts(), ...out })}\n`);
