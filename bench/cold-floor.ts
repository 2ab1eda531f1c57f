// Cold start at 10 000 skills against its floor, fresh processes, same run: the snapshot load against a plain stat
// walk of the same tree (goal ≤ 1.5×), the first search after that cold load (the stored index read, goal ≤ 100 ms)
// and the process's RSS after that search (goal ≤ 150 MB). The tree is generated from the corpus as
// ../shared/bench-peers/gen.mjs does; the snapshot and its search index are written once by a process that built the
// index, then every sample is a fresh process, walk and load alternating (the order flipping every repetition).
// Figures are wall-clock medians; samples run the built package (packages/core/dist) in plain Node. With
// --baseline=DIR (another build of packages/core, e.g. an older commit's compiled into packages/core/dist-old), that
// build's cold load and first search run as a third arm of the same rotation, against its own snapshot.
// Run: pnpm bench cold-floor (or node --import tsx bench/cold-floor.ts [--quick] [--n=N] [--reps=R] [--baseline=DIR]).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { skillTree } from "./support/skill-trees.js";
import { median, round } from "./support/stats.js";

const quick = process.argv.includes("--quick");
const n = Number(process.argv.find((arg) => arg.startsWith("--n="))?.slice(4) ?? (quick ? 1000 : 10_000));
const baseline = process.argv.find((arg) => arg.startsWith("--baseline="))?.slice("--baseline=".length);
const reps = Number(process.argv.find((arg) => arg.startsWith("--reps="))?.slice(7) ?? (quick ? 2 : 5));
const GOALS = { loadRatio: 1.5, searchMs: 100, rssMiB: 150 };
const QUERIES = ["fill in a pdf form", "review this SQL query for performance", "deploy to vercel"];

// The samples run the built package: it must not be older than its sources.
const core = join(import.meta.dirname, "..", "packages", "core");
const newest = (dir: string): number =>
  Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((entry) =>
      entry.isDirectory() ? newest(join(dir, entry.name)) : statSync(join(dir, entry.name)).mtimeMs,
    ),
  );
if (
  !existsSync(join(core, "dist", "index.js")) ||
  statSync(join(core, "dist", "index.js")).mtimeMs < newest(join(core, "src"))
)
  throw new Error("packages/core/dist is older than its sources: build first (pnpm build)");

function child(args: string[], build?: string): Record<string, unknown> {
  const out = execFileSync(process.execPath, [join(import.meta.dirname, "cold-floor-child.mjs"), ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
    env: build === undefined ? process.env : { ...process.env, COLD_FLOOR_CORE: build },
  });
  return JSON.parse(out.trim().split("\n").pop()!) as Record<string, unknown>;
}

const work = mkdtempSync(join(tmpdir(), "skillgraph-bench-cold-floor-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
const { dir } = await skillTree(n);
const snapshot = join(work, "registry.json");
child(["write", dir, snapshot]);
const baselineSnapshot = join(work, "baseline.json");
if (baseline) child(["write", dir, baselineSnapshot], baseline);
// Outside the racy window of the snapshot: every entry is trusted on its stat alone.
await new Promise((resolve) => setTimeout(resolve, 2500));
const loadsAtStart = loadavg();
const walks: number[] = [];
const walkCpu: number[] = [];
const loads: Array<Record<string, number>> = [];
const baselineLoads: Array<Record<string, number>> = [];
const tops = new Map<string, string>();
const arms = baseline ? ["walk", "load", "baseline"] : ["walk", "load"];
for (let rep = 0; rep < reps; rep++) {
  // The order rotates every repetition (reversed every other one), so no arm always runs first.
  const rotated = [...arms.slice(rep % arms.length), ...arms.slice(0, rep % arms.length)];
  for (const mode of rep % 2 === 0 ? rotated : rotated.reverse()) {
    if (mode === "walk") {
      const sample = child(["walk", dir]);
      if (sample.count !== n) throw new Error(`stat walk found ${String(sample.count)} skills, expected ${n}`);
      walks.push(sample.ms as number);
      walkCpu.push(sample.cpuMs as number);
      continue;
    }
    const query = QUERIES[rep % QUERIES.length]!;
    const sample =
      mode === "load" ? child(["load", dir, snapshot, query]) : child(["load", dir, baselineSnapshot, query], baseline);
    if (sample.count !== n) throw new Error(`load gave ${String(sample.count)} skills, expected ${n}`);
    // Every cold process (the baseline's too) must rank alike.
    const top = JSON.stringify(sample.top);
    if (tops.has(query) && tops.get(query) !== top) throw new Error(`'${query}': rankings differ between processes`);
    tops.set(query, top);
    (mode === "load" ? loads : baselineLoads).push(sample as Record<string, number>);
  }
}
const walkMs = median(walks);
const loadMs = median(loads.map((s) => s.ms!));
const searchMs = median(loads.map((s) => s.searchMs!));
const rssLoad = median(loads.map((s) => s.rssAfterLoad!));
const rssSearch = median(loads.map((s) => s.rssAfterSearch!));
const verdict = (ok: boolean) => (ok ? "meets" : "MISSES");
const loadCpu = median(loads.map((s) => s.cpuMs!));
const searchCpu = median(loads.map((s) => s.searchCpuMs!));
// Older builds (a baseline) do not report it.
const listMs = median(loads.map((s) => s.listMs ?? 0));
const rows = [
  ["plain stat walk (the floor)", `${round(walkMs, 1)} ms`, "", ""],
  [
    "cold load with the snapshot",
    `${round(loadMs, 1)} ms`,
    `${round(loadMs / walkMs, 2)}× the walk`,
    `≤ ${GOALS.loadRatio}× ${verdict(loadMs / walkMs <= GOALS.loadRatio)}`,
  ],
  [
    "first search after the cold load",
    `${round(searchMs, 1)} ms`,
    "",
    `≤ ${GOALS.searchMs} ms ${verdict(searchMs <= GOALS.searchMs)}`,
  ],
  [
    "(CPU) stat walk / cold load",
    `${round(median(walkCpu), 1)} / ${round(loadCpu, 1)} ms`,
    `${round(loadCpu / median(walkCpu), 2)}×`,
    "CPU time: steadier under load",
  ],
  ["(CPU) first search", `${round(searchCpu, 1)} ms`, "", ""],
  ["first list() after the load (makes every skill's metadata)", `${round(listMs, 1)} ms`, "", ""],
  ["RSS after load", `${round(rssLoad, 0)} MB`, "", ""],
  [
    "RSS after the first search",
    `${round(rssSearch, 0)} MB`,
    "",
    `≤ ${GOALS.rssMiB} MB ${verdict(rssSearch <= GOALS.rssMiB)}`,
  ],
];
if (baseline) {
  const of = (key: string) => median(baselineLoads.map((s) => s[key]!));
  rows.push(
    ["baseline: cold load", `${round(of("ms"), 1)} ms`, `${round(of("ms") / walkMs, 2)}× the walk`, ""],
    ["baseline: (CPU) cold load", `${round(of("cpuMs"), 1)} ms`, `${round(of("cpuMs") / median(walkCpu), 2)}×`, ""],
    ["baseline: first search (CPU)", `${round(of("searchMs"), 1)} ms (${round(of("searchCpuMs"), 1)} ms)`, "", ""],
    [
      "baseline: RSS after load / search",
      `${round(of("rssAfterLoad"), 0)} / ${round(of("rssAfterSearch"), 0)} MB`,
      "",
      "",
    ],
  );
}
const loadsAtEnd = loadavg();
console.log(
  `${n} skills, ${reps} fresh processes per arm (medians), load average ${loadsAtStart.map((v) => v.toFixed(1)).join(" / ")} at start, ${loadsAtEnd.map((v) => v.toFixed(1)).join(" / ")} at end`,
);
console.log(
  ["| figure | median | ratio | goal |", "|---|---:|---:|---|", ...rows.map((row) => `| ${row.join(" | ")} |`)].join(
    "\n",
  ),
);
mkdirSync(join(import.meta.dirname, "results"), { recursive: true });
writeFileSync(
  join(import.meta.dirname, "results", "cold-floor.json"),
  JSON.stringify(
    {
      node: process.version,
      date: new Date().toISOString(),
      n,
      reps,
      loadsAtStart,
      loadsAtEnd,
      walks,
      loads,
      ...(baseline ? { baseline, baselineLoads } : {}),
    },
    null,
    2,
  ),
);
