// One cold-load sample in a fresh process (mode: naive | registry | snapshot FILE): prints a JSON line with the timings and memory of loading N skills.
import { performance } from "node:perf_hooks";
import { createSkillRegistry, skillsFromDirectory } from "../packages/core/src/index.js";
import { naiveLoad } from "./support/naive-loader.js";

const [mode, dir, snapshotFile] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
gc();
gc();
const heapBefore = process.memoryUsage().heapUsed;
const cpuStart = process.cpuUsage();
const start = performance.now();
let count: number;
let keep: unknown;
let firstSearchMs: number | undefined;
let ms: number;
if (mode === "naive") {
  const skills = await naiveLoad(dir!);
  count = skills.length;
  keep = skills;
} else {
  // "registry": no snapshot (parse every file); "snapshot": a snapshot file written by an earlier process.
  const registry = await createSkillRegistry({
    sources: [skillsFromDirectory(dir!)],
    snapshot: mode === "snapshot" ? snapshotFile! : false,
  });
  count = registry.list().length;
  keep = registry;
}
ms = performance.now() - start;
// CPU time of the load (all threads): steadier than wall time on a machine shared with other work.
const cpu = process.cpuUsage(cpuStart);
const cpuMs = (cpu.user + cpu.system) / 1000;
if (mode !== "naive") {
  // The search index is built on the first search: time it apart from the load.
  const searchStart = performance.now();
  (keep as { search(query: string): unknown }).search("fill in a pdf form");
  firstSearchMs = performance.now() - searchStart;
}
gc();
gc();
const heapAfter = process.memoryUsage().heapUsed;
process.stdout.write(
  `${JSON.stringify({ mode, count, ms, cpuMs, firstSearchMs, heapMiB: (heapAfter - heapBefore) / 2 ** 20, rssMiB: process.memoryUsage().rss / 2 ** 20, kept: keep !== undefined })}\n`,
);
