// One sample of bench/cold-floor.ts in a fresh process, plain Node on the built package (packages/core/dist: what a
// fleet process runs; no TypeScript loader in the process, its memory or its timings). Modes:
//   walk DIR          the floor: a plain stat walk of the tree (readdir with file types of every folder, stat of every
//                     SKILL.md), synchronous, nothing kept
//   write DIR SNAP    build the registry snapshot SNAP with its search index beside it (index built at load)
//   load DIR SNAP Q   cold start from SNAP, then the first search for the query Q
//   rank DIR SNAP QF  cold start from SNAP ("none": built from the files), then every query of the JSON array file QF
// The package is packages/core/dist, or the build in COLD_FLOOR_CORE (a baseline to compare with in the same run).
// Prints one JSON line: wall-clock and CPU (user + system) ms of the walk or load and of the first search, wall-clock ms
// of the first list() after the load (it makes every skill's metadata), RSS after load and after the search.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const [mode, dir, file, query] = process.argv.slice(2);
const rssMiB = () => process.memoryUsage().rss / 2 ** 20;

/** Every SKILL.md under `root` with its stat, as a plain walker finds them. */
function statWalk(root) {
  let found = 0;
  const pending = [root];
  while (pending.length > 0) {
    const folder = pending.pop();
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) pending.push(join(folder, entry.name));
      else if (entry.name === "SKILL.md") {
        statSync(join(folder, entry.name), { bigint: true });
        found++;
      }
    }
  }
  return found;
}

let out;
if (mode === "walk") {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const count = statWalk(dir);
  const cpu = process.cpuUsage(cpuStart);
  out = { count, ms: performance.now() - start, cpuMs: (cpu.user + cpu.system) / 1000 };
} else {
  // COLD_FLOOR_CORE: another build of the package (a baseline, see cold-floor.ts --baseline), else packages/core/dist.
  const core = process.env.COLD_FLOOR_CORE ?? new URL("../packages/core/dist", import.meta.url).pathname;
  const { createSkillRegistry, skillsFromDirectory } = await import(pathToFileURL(join(core, "index.js")).href);
  if (mode === "write") {
    const registry = await createSkillRegistry({
      sources: [skillsFromDirectory(dir)],
      snapshot: file,
      searchIndex: "eager",
    });
    await registry.close();
    out = {};
  } else if (mode === "rank") {
    // rank DIR SNAP QUERIES: cold start from SNAP ("none": no snapshot, the index built from the files), then every
    // query of the JSON array QUERIES (limit 10); prints each ranking as names and exact scores.
    const queries = JSON.parse(readFileSync(query, "utf8"));
    const registry = await createSkillRegistry({
      sources: [skillsFromDirectory(dir)],
      snapshot: file === "none" ? false : file,
    });
    const rankings = queries.map((text) =>
      registry.search(text, { limit: 10 }).map((result) => `${result.name}:${result.score}`),
    );
    await registry.close();
    out = { count: registry.list().length, rankings };
  } else {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    const registry = await createSkillRegistry({ sources: [skillsFromDirectory(dir)], snapshot: file });
    const ms = performance.now() - start;
    const loadCpu = process.cpuUsage(cpuStart);
    // The first list() makes every skill's metadata (a cold start from the snapshot leaves it to the first use).
    const listStart = performance.now();
    const count = registry.list().length;
    const listMs = performance.now() - listStart;
    const rssAfterLoad = rssMiB();
    const searchStart = performance.now();
    const searchCpuStart = process.cpuUsage();
    const top = registry.search(query, { limit: 5 }).map((result) => result.name);
    const searchMs = performance.now() - searchStart;
    const searchCpu = process.cpuUsage(searchCpuStart);
    const rssAfterSearch = rssMiB();
    await registry.close();
    const cpuMs = (usage) => (usage.user + usage.system) / 1000;
    out = {
      count,
      ms,
      cpuMs: cpuMs(loadCpu),
      listMs,
      searchMs,
      searchCpuMs: cpuMs(searchCpu),
      rssAfterLoad,
      rssAfterSearch,
      top,
    };
  }
}
process.stdout.write(`${JSON.stringify({ mode, ...out })}\n`);
