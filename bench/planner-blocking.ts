// How long one call of the command planner, or one output collection, holds the event loop on hostile input: 64 KB
// lines shaped to make each step work hardest (path segments, climbs, words, pipelines, substitutions, nesting, cds),
// output globs at every bound against deep files in out/, and the repository scan of a workspace of 10 000 folders.
// The bound the code guarantees is 50 ms of the thread's CPU per event-loop turn (tested in
// packages/shell/src/command/event-loop-blocking.int.test.ts); wall-clock figures here also count waiting for a core.
// Run: node --import tsx bench/planner-blocking.ts [--quick]   (writes bench/results/planner-blocking.json)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { longestCpuSlice } from "../packages/shell/src/__fixtures__/cpu-slices.js";
import { loadBashParser } from "../packages/shell/src/command/bash-parser.js";
import { threadCpuMicros } from "../packages/shell/src/command/thread-cpu-time.js";
import { sanitizedRepositoryBindsAsync } from "../packages/shell/src/repository/sanitized-repositories.js";
import { PLAN_TIME_BOX_MS } from "../packages/shell/src/command/plan-budget.js";
import { DEFAULT_DENIED_PROGRAMS, type CommandPolicy } from "../packages/shell/src/policy/command-policy.js";
import { parseCommandRule } from "../packages/shell/src/policy/command-rules.js";
import { planCommand, preflightCommand } from "../packages/shell/src/policy/plan-command.js";
import { collectOutputFiles } from "../packages/shell/src/workspace/collect-output-files.js";
import { compileLinearGlob } from "../packages/shell/src/workspace/linear-glob.js";
import { compileOutputGlobs, MAX_OUTPUT_GLOB_TOKENS } from "../packages/shell/src/workspace/output-globs.js";

const BOUND_MS = 50;
const quick = process.argv.includes("--quick");
const rounds = quick ? 2 : 7;
const round = (value: number) => Math.round(value * 10) / 10;

const LIMIT = 64 * 1024;
const fill = (head: string, unit: string, tail = "") =>
  head + unit.repeat(Math.floor((LIMIT - head.length - tail.length) / unit.length)) + tail;

const hostileLines: Record<string, string> = {
  "path segments (one argument)": fill("cat ", "a/", "x"),
  "'..' climbs": fill("cat ", "../", "x"),
  "short path words": fill("echo ", "x/y "),
  "a pipeline of 13 000 commands": fill("true", " | true"),
  "command substitutions": fill("echo ", "$(true) "),
  "backslash-newline continuations": fill("echo ", "a \\\n"),
  "nested substitutions (depth 200)": `echo ${"$(".repeat(200)}true${")".repeat(200)}`,
  "40 cd commands": `${Array.from({ length: 40 }, (_, index) => `cd d${index}`).join("; ")}; cat x`,
  "find with 6 000 -exec": fill("find . ", "-exec true "),
  "a here-document body": `cat <<EOF\n${fill("", "line $x and $(true)\n", "EOF")}`,
  "path through 1 000 existing folders": fill("cat ", "d/", "x"),
  redirections: fill("echo ", "> d/d/d/x "),
  "option clusters": fill("cp ", "-vtd/d "),
};

/**
 * The longest of `rounds` synchronous calls after one warm-up call (each holds the event loop for its whole
 * duration), and the thread's CPU time of that call: on a loaded machine the wall time also counts waiting for a core.
 */
function longestSync(call: () => unknown): { longestMs: number; cpuMs: number; result: unknown } {
  let longest = 0;
  let cpu = 0;
  let result: unknown = call(); // warm-up: the first call of a process also compiles the checker's code
  for (let pass = 0; pass < rounds; pass += 1) {
    const started = performance.now();
    const startedCpu = threadCpuMicros();
    result = call();
    const used = threadCpuMicros() - startedCpu;
    const wall = performance.now() - started;
    if (wall > longest) [longest, cpu] = [wall, used / 1000];
  }
  return { longestMs: round(longest), cpuMs: round(cpu), result };
}

/** The longest gap between event-loop turns while `work` runs (a setImmediate ticker measures it). */
async function longestGap(work: () => Promise<unknown>): Promise<number> {
  let longest = 0;
  let last = performance.now();
  let running = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  running = false;
  return round(longest);
}

const workspaceDir = mkdtempSync(path.join(os.tmpdir(), "planner-blocking-"));
const policy: CommandPolicy = {
  deny: DEFAULT_DENIED_PROGRAMS.map((name) => parseCommandRule(name, "deny", { prefix: true })!),
  envAllow: new Set(["TZ"]),
  fixedPath: "/usr/local/bin:/usr/bin:/bin",
  confinePaths: true,
  readablePaths: ["/dev/null"],
  syntax: "full",
  opaqueNeedsApproval: true,
};
await loadBashParser();
mkdirSync(path.join(workspaceDir, ...Array.from({ length: 1000 }, () => "d")), { recursive: true });
const results: Record<string, unknown> = {
  boundMs: BOUND_MS,
  planTimeBoxMs: PLAN_TIME_BOX_MS,
  rounds,
  loadAverageAtStart: os.loadavg(),
};
console.log(
  `planner on 64 KB hostile lines (longest of ${rounds} calls after a warm-up; time box ${PLAN_TIME_BOX_MS} ms CPU):`,
);
const planner: Record<string, unknown> = {};
for (const [name, line] of Object.entries(hostileLines)) {
  const input = { command: line, mode: "shell" as const, loadedSkills: [], workspaceDir };
  const pre = longestSync(() => preflightCommand(input, policy));
  const plan = longestSync(() => planCommand(input, policy));
  const outcome = plan.result as { ok: boolean; reason?: string };
  const verdict = outcome.ok ? "planned" : `refused (${outcome.reason})`;
  planner[name] = {
    chars: line.length,
    preflightMs: pre.longestMs,
    preflightCpuMs: pre.cpuMs,
    planMs: plan.longestMs,
    planCpuMs: plan.cpuMs,
    verdict,
  };
  const over = Math.max(pre.longestMs, plan.longestMs) > BOUND_MS ? "  OVER THE BOUND" : "";
  const shown = (figure: { longestMs: number; cpuMs: number }) =>
    `${String(figure.longestMs).padStart(6)} ms (cpu ${String(figure.cpuMs).padStart(5)})`;
  console.log(
    `  ${name.padEnd(36)} ${String(line.length).padStart(6)} chars  preflight ${shown(pre)}  plan ${shown(plan)}  ${verdict}${over}`,
  );
}
results.planner = planner;

// output globs at the bounds: as many worst-shaped globs as the token budget admits, against the deepest paths the
// listing returns (16 folders of 250-character names) and against 2 000 files
const shapes: Record<string, (k: number) => string> = {
  "globstars and braces": (k) => `${"**/*{a,b}*".repeat(3)}/**/*${k}*z*`,
  "stars between letters": () => `**/${"*a".repeat(40)}z`,
  "globstar segments": () => `${"**/a".repeat(30)}z`,
};
const collection: Record<string, unknown> = {};
console.log(`output collection at the glob bounds (${MAX_OUTPUT_GLOB_TOKENS} tokens; longest event-loop gap):`);
const out = path.join(workspaceDir, "out");
const deep = Array.from({ length: 15 }, (_, index) => `${"a".repeat(245)}${index}`);
mkdirSync(path.join(out, ...deep), { recursive: true });
writeFileSync(path.join(out, ...deep, "b.txt"), "x");
mkdirSync(path.join(out, "many"), { recursive: true });
for (let index = 0; index < 2000; index += 1) writeFileSync(path.join(out, "many", `a${index}.txt`), "");
for (const [name, shape] of Object.entries(shapes)) {
  const globs: string[] = [];
  let tokens = 0;
  for (let k = 0; globs.length < 32; k += 1) {
    const compiled = compileLinearGlob(shape(k));
    if (!compiled.ok || tokens + compiled.tokens > MAX_OUTPUT_GLOB_TOKENS) break;
    tokens += compiled.tokens;
    globs.push(shape(k));
  }
  const compiled = compileOutputGlobs(globs);
  if (!compiled.ok) throw new Error(compiled.message);
  let gap = 0;
  for (let pass = 0; pass < rounds; pass += 1)
    gap = Math.max(gap, await longestGap(() => collectOutputFiles(workspaceDir, { match: compiled.match })));
  const over = gap > BOUND_MS ? "  OVER THE BOUND" : "";
  collection[name] = { globs: globs.length, tokens, longestGapMs: gap };
  console.log(`  ${name.padEnd(24)} ${globs.length} globs, ${tokens} tokens: longest gap ${gap} ms${over}`);
}
const refused = compileOutputGlobs(Array.from({ length: 32 }, (_, k) => `${"**/*{a,b}*".repeat(5)}/**/*${k}*z*`));
console.log(`  32 globs × 32 alternatives: ${refused.ok ? "accepted" : `refused (${refused.message})`}`);
results.collection = collection;

// the repository scan before a bubblewrap command: 10 000 folders, 50 repositories with the largest config read
const scanRoot = mkdtempSync(path.join(os.tmpdir(), "planner-blocking-scan-"));
for (let top = 0; top < 100; top += 1)
  for (let inner = 0; inner < 100; inner += 1)
    mkdirSync(path.join(scanRoot, `t${top}`, `i${inner}`), { recursive: true });
for (let index = 0; index < 50; index += 1) {
  const git = path.join(scanRoot, `t${index}`, ".git");
  for (const folder of ["objects", "refs", "hooks"]) mkdirSync(path.join(git, folder), { recursive: true });
  writeFileSync(path.join(git, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(path.join(git, "config"), `[core]\n${'[filter "x"]\n\tclean = cat\n'.repeat(9000)}`);
}
let scanGap = 0;
let scanCpu = 0;
let scanWall = 0;
for (let pass = 0; pass < rounds; pass += 1) {
  const started = performance.now();
  let cleanup = () => undefined as void;
  scanGap = Math.max(
    scanGap,
    await longestGap(async () => {
      cleanup = (
        await sanitizedRepositoryBindsAsync([{ host: scanRoot, sandbox: "/w" }], {
          maxFolders: 50_000,
          maxRepositories: 256,
        })
      ).cleanup;
    }),
  );
  scanWall = Math.max(scanWall, performance.now() - started);
  cleanup();
  scanCpu = Math.max(
    scanCpu,
    await longestCpuSlice(async () => {
      (
        await sanitizedRepositoryBindsAsync([{ host: scanRoot, sandbox: "/w" }], {
          maxFolders: 50_000,
          maxRepositories: 256,
        })
      ).cleanup();
    }),
  );
}
rmSync(scanRoot, { recursive: true, force: true });
results.repositoryScan = {
  folders: 10_000,
  repositories: 50,
  totalMs: round(scanWall),
  longestGapMs: scanGap,
  longestCpuSliceMs: round(scanCpu),
};
console.log(
  `repository scan, 10 000 folders and 50 repositories: ${round(scanWall)} ms in all, longest event-loop gap ${scanGap} ms (cpu slice ${round(scanCpu)} ms)${scanGap > BOUND_MS ? "  OVER THE BOUND" : ""}`,
);
rmSync(workspaceDir, { recursive: true, force: true });
const outFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "results/planner-blocking.json");
mkdirSync(path.dirname(outFile), { recursive: true });
writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
