// Before and after in one run: cold load (from skill files and from a snapshot), first search and per-call overhead at
// 1 000 skills, measured on a baseline checkout and on this one, alternating, each sample in a fresh process.
// Run: pnpm bench before-after [--base REV] [--quick]
// The baseline (default: 8c42fac, the code before the registry split, the option schemas and the shell pipeline) is
// checked out once into the OS temp folder and its dependencies installed from the pnpm store (offline when warm); it
// stays there for the next run (remove it with `git worktree remove`). The snapshots of one run are removed at its end.
// Verdict per figure: after / before ≤ 1.10 is "ok", judged on the best sample of each side (the one least disturbed by
// other work on a shared machine; the medians are printed beside it); CPU time is judged (the wall time of a model
// call is printed, not judged); a figure under 1 ms is compared but never called a regression on its ratio alone. The
// same agent without skills is a control: its code is LangChain's, identical on both sides, so a difference there is
// the machine, not the change. Each figure gets 15 samples per side (6 with --quick).
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { skillTree } from "./support/skill-trees.js";
import { median, round } from "./support/stats.js";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const baseRev = args.includes("--base") ? args[args.indexOf("--base") + 1]! : "8c42fac";
// As many model-call samples as load samples: a call's CPU time moves by a quarter between samples on a shared machine
// (garbage collection, the JIT), even for the agent without skills whose code is the same on both sides.
const reps = quick ? 6 : 15;
const repo = join(import.meta.dirname, "..");
const PROBE = "bench/support/hub-probe.ts";
/** The same agent without skills: LangChain's own code, identical in both checkouts, so it shows the machine's drift. */
const CONTROL = "control: model call without skills (same code on both sides), CPU ms of the median call";
/** Printed beside the CPU figure, never judged: a busy machine stretches wall time. */
const WALL = "model call with skills, mean wall ms (not judged: a busy machine stretches it)";

/** The baseline checkout, made once: a detached worktree with its dependencies installed. */
function baselineCheckout(rev: string): string {
  const commit = execFileSync("git", ["rev-parse", "--verify", `${rev}^{commit}`], {
    cwd: repo,
    encoding: "utf8",
  }).trim();
  const dir = join(tmpdir(), `skillgraph-bench-base-${commit.slice(0, 12)}`);
  if (!existsSync(join(dir, "node_modules", ".modules.yaml"))) {
    rmSync(dir, { recursive: true, force: true });
    execFileSync("git", ["worktree", "prune"], { cwd: repo });
    execFileSync("git", ["worktree", "add", "--detach", "--force", dir, commit], { cwd: repo, stdio: "ignore" });
    console.log(`baseline ${rev} (${commit.slice(0, 12)}): installing dependencies in ${dir}`);
    execFileSync("bash", ["scripts/pnpm.sh", "install", "--frozen-lockfile", "--prefer-offline", "--ignore-scripts"], {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  mkdirSync(join(dir, "bench", "support"), { recursive: true });
  copyFileSync(join(repo, PROBE), join(dir, PROBE));
  return dir;
}

function probe(cwd: string, ...probeArgs: string[]): Record<string, number> {
  const result = spawnSync(
    process.execPath,
    ["--expose-gc", "--conditions=@skillgraph/source", "--import", "tsx", PROBE, ...probeArgs],
    { cwd, encoding: "utf8", maxBuffer: 1 << 24 },
  );
  if (result.status !== 0) throw new Error(`probe ${probeArgs[0]} in ${cwd} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").pop()!) as Record<string, number>;
}

const base = baselineCheckout(baseRev);
const { dir } = await skillTree(1000);
const trees = { before: base, after: repo } as const;
// Each snapshot in a folder only this user can write (a snapshot in a world-writable folder such as /tmp itself is
// not trusted: the registry reports it and loads from the files).
const snapshotDir = mkdtempSync(join(tmpdir(), "skillgraph-bench-snapshots-"));
const snapshots = { before: join(snapshotDir, "before.json"), after: join(snapshotDir, "after.json") };
for (const side of ["before", "after"] as const) {
  rmSync(snapshots[side], { force: true });
  probe(trees[side], "write-snapshot", dir, snapshots[side]);
}
// A snapshot written less than ~2 s after a file changed is not trusted (racy-clean rule): wait it out.
await new Promise((resolve) => setTimeout(resolve, 2500));

const samples: Record<string, { before: number[]; after: number[] }> = {};
const record = (figure: string, side: "before" | "after", value: number | undefined) => {
  if (value === undefined) return;
  (samples[figure] ??= { before: [], after: [] })[side].push(value);
};
for (let rep = 0; rep < reps; rep++) {
  const order = rep % 2 === 0 ? (["before", "after"] as const) : (["after", "before"] as const);
  for (const side of order) {
    const cold = probe(trees[side], "cold", dir);
    record("cold load from files, CPU ms", side, cold.loadCpuMs);
    record("first search after a cold load, ms", side, cold.firstSearchMs);
    const warm = probe(trees[side], "snapshot", dir, snapshots[side]);
    const problems = warm.snapshotProblems as unknown as string[] | undefined;
    if (problems?.length) console.log(`${side}: the snapshot was not used: ${problems.join("; ")}`);
    record("cold load from a snapshot, CPU ms", side, warm.loadCpuMs);
    record("first search after a snapshot load, ms", side, warm.firstSearchMs);
    const calls = probe(trees[side], "calls", dir);
    record("model call with skills (createAgent + middleware), CPU ms of the median call", side, calls.perCallCpuMs);
    record(CONTROL, side, calls.withoutCpuMs);
    record("overhead per model call (with − without skills), CPU ms of the median call", side, calls.overheadCpuMs);
    record(WALL, side, calls.perCallMs);
  }
}

console.log(
  `\nbefore = ${baseRev}, after = this checkout; 1 000 skills; ${reps} samples per figure and side, ` +
    `alternating; verdict on the best sample of each side`,
);
console.log(`| figure | before (best / median) | after (best / median) | after / before (best / median) | verdict |`);
console.log(`|---|---|---|---|---|`);
let worse = 0;
for (const [figure, { before, after }] of Object.entries(samples)) {
  const best = { before: Math.min(...before), after: Math.min(...after) };
  const mid = { before: median(before), after: median(after) };
  const ratio = best.before > 0 ? best.after / best.before : Number.NaN;
  const medianRatio = mid.before > 0 ? mid.after / mid.before : Number.NaN;
  const small = Math.max(Math.abs(best.after), Math.abs(best.before)) < 1;
  const verdict =
    figure === CONTROL || figure === WALL
      ? "not judged"
      : small
        ? "under 1 ms"
        : ratio <= 1.1
          ? "ok"
          : "WORSE by more than 10%";
  if (verdict.startsWith("WORSE")) worse++;
  const show = (value: number) => (Number.isNaN(value) ? "-" : String(round(value, 2)));
  console.log(
    `| ${figure} | ${show(best.before)} / ${show(mid.before)} | ${show(best.after)} / ${show(mid.after)} | ` +
      `${show(ratio)} / ${show(medianRatio)} | ${verdict} |`,
  );
}
rmSync(snapshotDir, { recursive: true, force: true });
console.log(worse === 0 ? "\nno figure worse by more than 10%" : `\n${worse} figure(s) worse by more than 10%`);
