// Typed arrays in the search index: does each one pay? Core's index (typed) against plain JavaScript versions of its
// parts (bench/support/plain-search, swapped in for core's modules by a module hook), one part at a time, in the same
// run on the same skill trees. Parts: "frequencies" (a document's field counts in slot-indexed Int32Array scratch,
// packed into a Uint32Array) and "word-table" (tokenizing through a code-unit hash table over a Uint16Array copy of the
// text). The posting lists and the stored index are typed arrays in every arm (the stored form is those arrays, read
// in place; bench/cold-floor.ts times it against its goal). Before any timing, every arm builds the index and restores
// it from a registry snapshot and must give the same rankings with the same scores for every development query (a
// digest of names and exact scores), the restored index the same as the one built; the timed samples are checked the
// same way. Every sample is a fresh process (--expose-gc); the arms alternate, the order rotating every repetition.
// Figures are CPU time (user + system) of the index build, the first search, a batch of searches (every 8th development
// query), the restore (cold start from the snapshot, then the first search: the stored index read, checked and used),
// and the memory the built index retains (heap + array buffers after gc). A typed part pays where its plain version is
// worse by more than 10% on the best sample of a figure the part touches.
// Run: pnpm bench search-postings (or node --expose-gc --import tsx bench/search-postings.ts [--quick]
// [--parts=frequencies,…] [--rep-factor=2]).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loadQuerySets } from "./support/query-sets.js";
import { skillTree } from "./support/skill-trees.js";
import { median, round } from "./support/stats.js";

const quick = process.argv.includes("--quick");
const flag = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const sizes = quick ? [100, 1000] : [1000, 10_000];
const reps = (n: number) => (quick ? 2 : n >= 10_000 ? 5 : 9) * Number(flag("rep-factor") ?? 1);
const THRESHOLD = 0.1;

type Figure = "buildMs" | "retained" | "firstSearchMs" | "batchMs" | "restoreMs";
const FIGURES: Record<Figure, string> = {
  buildMs: "index build, CPU ms",
  retained: "retained by the index, MB",
  firstSearchMs: "first search, CPU ms",
  batchMs: "batch of searches, CPU ms",
  restoreMs: "restore from snapshot, CPU ms",
};
/** The figures each plain part can change (the others run the same code in both arms). */
const PARTS: Record<string, Figure[]> = {
  frequencies: ["buildMs", "retained"],
  "word-table": ["buildMs", "retained"],
};
// --parts=a,b measures only those parts against the typed index (all by default).
const picked = flag("parts")?.split(",") ?? Object.keys(PARTS);
for (const part of picked) if (!(part in PARTS)) throw new Error(`unknown part '${part}'`);
const arms = ["typed", ...picked];
const hooks = join(import.meta.dirname, "support", "plain-search", "register.mjs");

type Sample = Record<string, unknown> & { parts: string[]; digest?: string };
function child(arm: string, args: string[]): Sample {
  // Every arm loads the hook (the typed arm with nothing to swap), so all processes start alike.
  const out = execFileSync(
    process.execPath,
    [
      "--expose-gc",
      "--import",
      "tsx",
      "--import",
      hooks,
      join(import.meta.dirname, "search-postings-child.ts"),
      ...args,
    ],
    { encoding: "utf8", maxBuffer: 1 << 24, env: { ...process.env, PLAIN_SEARCH: arm === "typed" ? "" : arm } },
  );
  const sample = JSON.parse(out.trim().split("\n").pop()!) as Sample;
  const expected = arm === "typed" ? "" : arm;
  if (sample.parts.join(",") !== expected) throw new Error(`${arm}: plain parts loaded: [${sample.parts.join(", ")}]`);
  return sample;
}

/** Same rankings and scores as the typed arm, or a loud failure. */
function checkSame(arm: string, what: string, sample: Sample, typed: Sample | undefined): void {
  if (typed && sample.digest !== typed.digest)
    throw new Error(
      `${arm} ${what}: rankings or scores differ from the typed index (${sample.digest} ≠ ${typed.digest})`,
    );
}

// Every development set (A–E4c; not the natural-language list, not the held-out sets).
const queries = loadQuerySets()
  .filter((set) => set.label !== "natural")
  .flatMap((set) => set.queries.map((item) => item.query));
const work = mkdtempSync(join(tmpdir(), "skillgraph-bench-postings-"));
// The snapshots and query files of this run (36 MB of search index at 10 000 skills) go when it ends, failed or not.
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
const allQueries = join(work, "queries-all.json");
const batchQueries = join(work, "queries-batch.json");
writeFileSync(allQueries, JSON.stringify(queries));
writeFileSync(batchQueries, JSON.stringify(queries.filter((_, i) => i % 8 === 0)));

const rows: Record<string, unknown>[] = [];
const table: string[] = [];
for (const n of sizes) {
  const { dir } = await skillTree(n);
  const snapshot = join(work, `n${n}`, "registry.json");
  mkdirSync(join(work, `n${n}`));
  child("typed", ["write", dir, snapshot]);
  // Outside the racy window of the files and of the snapshot: every entry is trusted on its stat alone.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  // The check: every arm, every development query, built and restored.
  const reference: Record<string, Sample> = {};
  for (const arm of arms) {
    for (const mode of ["index", "restore"] as const) {
      const sample = child(arm, [mode, dir, mode === "index" ? "-" : snapshot, allQueries]);
      if (sample.count !== n) throw new Error(`${arm} ${mode}: ${String(sample.count)} skills, expected ${n}`);
      checkSame(arm, `${mode} (all ${queries.length} queries, ${n} skills)`, sample, reference[mode]);
      // The index read from the stored file ranks exactly as the one built from the skills.
      checkSame(arm, `restore against build (all ${queries.length} queries, ${n} skills)`, sample, reference.index);
      reference[mode] ??= sample;
    }
  }
  const timedReference: Record<string, Sample> = {};
  const samples = Object.fromEntries(arms.map((arm) => [arm, [] as Sample[]]));
  const loads: number[] = [];
  for (let rep = 0; rep < reps(n); rep++) {
    const order = arms.map((_, i) => arms[(i + rep) % arms.length]!);
    if (rep % 2 === 1) order.reverse();
    for (const arm of order) {
      const index = child(arm, ["index", dir, "-", batchQueries]);
      const restore = child(arm, ["restore", dir, snapshot, batchQueries]);
      checkSame(arm, "index (batch)", index, timedReference.index);
      checkSame(arm, "restore (batch)", restore, timedReference.restore);
      timedReference.index ??= index;
      timedReference.restore ??= restore;
      const retained = ((index.retainedHeap as number) + (index.retainedBuffers as number)) / 2 ** 20;
      samples[arm]!.push({ ...index, retained, restoreMs: restore.restoreMs, parts: index.parts });
      loads.push(loadavg()[0]!);
    }
  }
  const values = (arm: string, figure: Figure) => samples[arm]!.map((sample) => sample[figure] as number);
  for (const part of picked) {
    const figures = PARTS[part]!;
    for (const figure of figures) {
      const typed = values("typed", figure);
      const plain = values(part, figure);
      const ratio = Math.min(...plain) / Math.min(...typed);
      const verdict = ratio > 1 + THRESHOLD ? "typed pays" : ratio < 1 - THRESHOLD ? "plain better" : "within 10%";
      const row = {
        n,
        part,
        figure: FIGURES[figure],
        typedBest: round(Math.min(...typed), 1),
        typedMedian: round(median(typed), 1),
        plainBest: round(Math.min(...plain), 1),
        plainMedian: round(median(plain), 1),
        ratio: round(ratio, 2),
        verdict,
      };
      rows.push(row);
      table.push(
        `| ${n} | ${part} | ${row.figure} | ${row.typedBest} / ${row.typedMedian} | ${row.plainBest} / ${row.plainMedian} | ${row.ratio.toFixed(2)} | ${verdict} |`,
      );
    }
  }
  console.log(
    `${n} skills: ${reps(n)} samples per arm, load average (1 min) ${round(Math.min(...loads), 1)}-${round(Math.max(...loads), 1)}`,
  );
}
console.log(
  [
    "| skills | part | figure | typed best / median | plain best / median | plain/typed (best) | verdict |",
    "|---:|---|---|---:|---:|---:|---|",
    ...table,
  ].join("\n"),
);
mkdirSync(join(import.meta.dirname, "results"), { recursive: true });
writeFileSync(
  join(import.meta.dirname, "results", "search-postings.json"),
  JSON.stringify(
    { node: process.version, date: new Date().toISOString(), quick, queries: queries.length, rows },
    null,
    2,
  ),
);
