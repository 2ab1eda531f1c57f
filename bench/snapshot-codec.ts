// Registry snapshot codec: what the snapshot file's encoding is worth on a cold start. Two codecs, same run, same
// machine, same skill tree: core's columnar codec ("columnar") and one JSON object per entry checked by zod schemas
// ("row", bench/support/row-codec, swapped in for core's by a module hook). Every sample is a fresh process; the arms
// alternate (the order rotates every repetition), and medians are reported. Per codec: the snapshot's size, the whole
// cold start from the snapshot (createSkillRegistry: read and check the snapshot, walk the folders with the stored
// listings, stat every SKILL.md, build the registry), and the snapshot read alone (read, parse, check every entry).
// The columnar codec is worth its code only if it saves more than 10% of the whole cold start at 1 000 skills. The
// decision reads CPU time (user + system, all threads of the process): on a 2-core machine shared with other work the
// wall time of a 0.1 s load mostly measures waiting for a core, so wall medians and minimums are printed beside it.
// Run: pnpm bench snapshot-codec (or node --import tsx bench/snapshot-codec.ts [--quick]).
// Since snapshot format 3 the file is binary (packages/core/src/snapshot/snapshot-binary.ts): the two JSON codecs this
// compared are gone (the row arm's module hook replaces a module whose interface changed), so it only says so. Compare
// snapshot builds with bench/cold-floor.ts --baseline=DIR, rankings with bench/cold-floor-rankings.ts.
if (!process.argv.includes("--json-codecs")) {
  console.log(
    "snapshot-codec: superseded by the binary snapshot (format 3); see bench/cold-floor.ts --baseline for codec comparisons",
  );
  process.exit(0);
}
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { skillTree } from "./support/skill-trees.js";
import { median, round } from "./support/stats.js";

const quick = process.argv.includes("--quick");
const sizes = quick ? [100, 1000] : [1000, 10_000];
const reps = (n: number) => (quick ? 3 : n >= 10_000 ? 7 : 15);
const codecs = ["row", "columnar"] as const;
type Codec = (typeof codecs)[number];
const rowHooks = join(import.meta.dirname, "support", "row-codec", "register.mjs");

function child(codec: Codec, mode: "write" | "load" | "read", dir: string, file: string) {
  const hooks = codec === "row" ? ["--import", rowHooks] : [];
  const out = execFileSync(
    process.execPath,
    ["--import", "tsx", ...hooks, join(import.meta.dirname, "snapshot-codec-child.ts"), mode, dir, file],
    { encoding: "utf8", maxBuffer: 1 << 24 },
  );
  return JSON.parse(out.trim().split("\n").pop()!) as { count: number; ms: number; cpuMs: number };
}

/** Which codec wrote a snapshot file: the columnar one stores `entries` as an object of columns. */
function writtenBy(file: string): Codec {
  const text = readFileSync(file, "utf8");
  // the JSON follows the MAC line (see packages/core/src/snapshot/cache-key.ts)
  const entries = (JSON.parse(text.slice(text.indexOf("{"))) as { entries: unknown }).entries;
  return Array.isArray(entries) ? "row" : "columnar";
}

const results: Record<string, unknown>[] = [];
for (const n of sizes) {
  const { dir } = await skillTree(n);
  const files = {} as Record<Codec, string>;
  for (const codec of codecs) {
    files[codec] = join(mkdtempSync(join(tmpdir(), `skillgraph-bench-codec-${codec}-`)), "registry.json");
    child(codec, "write", dir, files[codec]);
    if (writtenBy(files[codec]) !== codec)
      throw new Error(`the ${codec} arm wrote a ${writtenBy(files[codec])} snapshot`);
  }
  // Outside the racy window of the files and of the snapshots: every entry is trusted on its stat alone.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  for (const codec of codecs) child(codec, "load", dir, files[codec]);
  const load = { row: [] as number[], columnar: [] as number[] };
  const loadCpu = { row: [] as number[], columnar: [] as number[] };
  const read = { row: [] as number[], columnar: [] as number[] };
  const readCpu = { row: [] as number[], columnar: [] as number[] };
  const loadAverage: number[] = [];
  for (let rep = 0; rep < reps(n); rep++) {
    const order: Codec[] = rep % 2 === 0 ? ["row", "columnar"] : ["columnar", "row"];
    for (const codec of order) {
      const sample = child(codec, "load", dir, files[codec]);
      if (sample.count !== n) throw new Error(`${codec}: ${sample.count} skills loaded, expected ${n}`);
      load[codec].push(sample.ms);
      loadCpu[codec].push(sample.cpuMs);
      const readSample = child(codec, "read", dir, files[codec]);
      read[codec].push(readSample.ms);
      readCpu[codec].push(readSample.cpuMs);
      loadAverage.push(loadavg()[0]!);
    }
  }
  const saved = (median(load.row) - median(load.columnar)) / median(load.row);
  const savedMin = (Math.min(...load.row) - Math.min(...load.columnar)) / Math.min(...load.row);
  const savedCpu = (median(loadCpu.row) - median(loadCpu.columnar)) / median(loadCpu.row);
  const row = {
    n,
    samples: reps(n),
    rowBytes: statSync(files.row).size,
    columnarBytes: statSync(files.columnar).size,
    rowColdStartMs: round(median(load.row)),
    columnarColdStartMs: round(median(load.columnar)),
    rowColdStartMinMs: round(Math.min(...load.row)),
    columnarColdStartMinMs: round(Math.min(...load.columnar)),
    rowColdStartCpuMs: round(median(loadCpu.row)),
    columnarColdStartCpuMs: round(median(loadCpu.columnar)),
    rowReadMs: round(median(read.row)),
    columnarReadMs: round(median(read.columnar)),
    rowReadCpuMs: round(median(readCpu.row)),
    columnarReadCpuMs: round(median(readCpu.columnar)),
    // The share of the row codec's cold start the columnar codec saves (negative: it costs more).
    columnarSavesOfColdStartCpu: `${round(savedCpu * 100, 1)}%`,
    columnarSavesOfColdStartWall: `${round(saved * 100, 1)}%`,
    columnarSavesOfColdStartMinWall: `${round(savedMin * 100, 1)}%`,
    loadAverage1m: `${round(Math.min(...loadAverage))}-${round(Math.max(...loadAverage))}`,
  };
  results.push(row);
  console.log(JSON.stringify(row));
}
console.table(results);
const decisive = results.find((row) => row.n === 1000);
if (decisive)
  console.log(
    `at 1 000 skills the columnar codec saves ${String(decisive.columnarSavesOfColdStartCpu)} of the cold start's ` +
      `CPU time (wall: median ${String(decisive.columnarSavesOfColdStartWall)}, minimum ` +
      `${String(decisive.columnarSavesOfColdStartMinWall)}); threshold to keep it: more than 10%`,
  );
mkdirSync(join(import.meta.dirname, "results"), { recursive: true });
writeFileSync(
  join(import.meta.dirname, "results", "snapshot-codec.json"),
  JSON.stringify({ node: process.version, date: new Date().toISOString(), quick, results }, null, 2),
);
