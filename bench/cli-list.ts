// CLI benchmark: `skillgraph list` (the aligned table) against `skillgraph list --json` over the same 10 000 skills, in
// one run: each a fresh process of the built CLI (packages/cli/dist/bin.js, so build first), after one warm-up that
// writes the registry snapshot both then use. The table should cost little more than the JSON (target: within 1.5x).
// Run: pnpm bench cli (or node --import tsx bench/cli-list.ts [--quick]).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { skillTree } from "./support/skill-trees.js";
import { median, round } from "./support/stats.js";

const quick = process.argv.includes("--quick");
const n = quick ? 1000 : 10_000;
const reps = quick ? 3 : 5;
const bin = join(import.meta.dirname, "..", "packages", "cli", "dist", "bin.js");
if (!existsSync(bin)) {
  console.error(`${bin} is missing: build first (pnpm build)`);
  process.exit(1);
}
const { dir } = await skillTree(n);
const env = { ...process.env, NO_COLOR: "1", COLUMNS: "120", HOME: join(dir, "..", "home") };

/** Wall time of one `skillgraph list` process, in ms (and a check that it listed every skill). */
function timeList(extra: string[]): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [bin, "list", "--skills", dir, ...extra], {
    env,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0 && result.status !== 1) throw new Error(`list failed: ${result.stderr}`);
  const count = extra.includes("--json")
    ? (JSON.parse(result.stdout) as { skills: unknown[] }).skills.length
    : result.stdout.split("\n").length - 2;
  if (count < n * 0.9) throw new Error(`list printed ${count} skills of ${n}`);
  return ms;
}

timeList(["--json"]); // warm-up: writes the snapshot, fills the page cache
const table: number[] = [];
const json: number[] = [];
for (let rep = 0; rep < reps; rep++) {
  // Alternating, so drift in machine load hits both alike.
  table.push(timeList([]));
  json.push(timeList(["--json"]));
}
const figures = {
  skills: n,
  listMs: round(median(table)),
  listJsonMs: round(median(json)),
  ratio: round(median(table) / median(json)),
  runs: { table: table.map((ms) => round(ms)), json: json.map((ms) => round(ms)) },
  loadAverage: loadavg()[0],
};
console.log(
  `skillgraph list, ${n} skills: ${figures.listMs} ms (table) vs ${figures.listJsonMs} ms (--json): ` +
    `${figures.ratio}x (medians of ${reps} fresh processes, load ${round(figures.loadAverage ?? 0, 1)})`,
);
mkdirSync(join(import.meta.dirname, "results"), { recursive: true });
const out = join(import.meta.dirname, "results", "cli-list.json");
writeFileSync(out, JSON.stringify({ node: process.version, date: new Date().toISOString(), ...figures }, null, 2));
console.log(`written ${out}`);
