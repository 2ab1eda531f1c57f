// Rankings after a cold load at 10 000 skills, checked against another build and against the index built from the
// files: every development query (all sets of bench/support/query-sets.ts, limit 10) in fresh processes running the
// built package, from its own snapshot with the stored index restored, and (this build) without any snapshot. Names
// and exact scores must be identical everywhere; the first differences are printed otherwise.
// Run: node --import tsx bench/cold-floor-rankings.ts [--baseline=DIR] [--n=N] (DIR: another build of packages/core,
// e.g. an older commit compiled into packages/core/dist-old; the same as cold-floor.ts --baseline).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { skillTree } from "./support/skill-trees.js";
import { loadQuerySets } from "./support/query-sets.js";

const n = Number(process.argv.find((arg) => arg.startsWith("--n="))?.slice(4) ?? 10_000);
const baseline = process.argv.find((arg) => arg.startsWith("--baseline="))?.slice("--baseline=".length);

function child(args: string[], core?: string): { count: number; rankings: string[][] } {
  const out = execFileSync(process.execPath, [join(import.meta.dirname, "cold-floor-child.mjs"), ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
    env: core === undefined ? process.env : { ...process.env, COLD_FLOOR_CORE: core },
  });
  return JSON.parse(out.trim().split("\n").pop()!) as { count: number; rankings: string[][] };
}

const work = mkdtempSync(join(tmpdir(), "skillgraph-bench-cold-rankings-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
const { dir } = await skillTree(n);
const queries = [...new Set(loadQuerySets().flatMap((set) => set.queries.map((item) => item.query)))];
const queriesFile = join(work, "queries.json");
writeFileSync(queriesFile, JSON.stringify(queries));
const arms: Array<{ label: string; core?: string; snapshot: string }> = [
  { label: "this build, index built from the files", snapshot: "none" },
  { label: "this build, snapshot and stored index", snapshot: join(work, "this.json") },
  ...(baseline
    ? [
        {
          label: `baseline ${baseline}, snapshot and stored index`,
          core: baseline,
          snapshot: join(work, "baseline.json"),
        },
      ]
    : []),
];
for (const arm of arms) if (arm.snapshot !== "none") child(["write", dir, arm.snapshot], arm.core);
// Outside the racy window of the snapshots: every entry is served on its stat alone.
await new Promise((resolve) => setTimeout(resolve, 2500));
const results = arms.map((arm) => ({ ...arm, ...child(["rank", dir, arm.snapshot, queriesFile], arm.core) }));
const [reference, ...others] = results;
let differing = 0;
for (const other of others) {
  if (other.count !== reference!.count)
    throw new Error(`${other.label}: ${other.count} skills, expected ${reference!.count}`);
  queries.forEach((query, i) => {
    if (JSON.stringify(other.rankings[i]) === JSON.stringify(reference!.rankings[i])) return;
    if (differing++ < 5)
      console.log(
        `'${query}': ${other.label}\n  ${other.rankings[i]!.join(" ")}\n  vs ${reference!.rankings[i]!.join(" ")}`,
      );
  });
}
console.log(
  `${n} skills, ${queries.length} development queries, ${arms.length} arms: ${differing === 0 ? "identical rankings (names and exact scores)" : `${differing} rankings DIFFER`}`,
);
if (differing > 0) process.exitCode = 1;
