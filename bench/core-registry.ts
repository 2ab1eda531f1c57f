// Core benchmark: cold load (with and without the registry snapshot), reload (unchanged and one file changed),
// watcher latency (edit → visible), prompt rendering, search, memory, for 100 / 1 000 / 10 000 skills generated from the
// corpus. Baselines (same run): a naive loader that reads and parses every SKILL.md without caching, and deepagents'
// createAgent → first model call (../shared/bench-peers, `--no-peers` skips it).
// Run: pnpm bench core (or node --expose-gc --import tsx bench/core-registry.ts [--quick] [--no-peers]).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createSkillRegistry, skillsFromDirectory } from "../packages/core/src/index.js";
import { renderSkillsPrompt } from "../packages/core/src/prompt.js";
import { skillTree } from "./support/skill-trees.js";
import { writeTree } from "../test/support/skill-tree.js";
import { deepagentsColdMs, preparePeerHarness } from "./support/peer-deepagents.js";
import { median, percentile, round, sample } from "./support/stats.js";

const quick = process.argv.includes("--quick");
const sizes = quick ? [100, 1000] : [100, 1000, 10_000];
const coldReps = quick ? 2 : 3;
const queries = [
  "fill in a pdf form",
  "make a slide deck from my notes",
  "write release notes from git history",
  "review this SQL query for performance",
  "analyze single-cell RNA sequencing data",
  "automate my CRM contacts",
  "deploy to vercel",
  "test a web app in the browser",
  "debug a failing test systematically",
  "what's the weather in Paris",
];

const peerProblem = process.argv.includes("--no-peers") ? "--no-peers" : preparePeerHarness();
if (peerProblem) console.log(`deepagents not measured: ${peerProblem}`);

function child(mode: "registry" | "naive" | "snapshot", dir: string, snapshotFile = "") {
  const out = execFileSync(
    process.execPath,
    ["--expose-gc", "--import", "tsx", join(import.meta.dirname, "core-child.ts"), mode, dir, snapshotFile],
    { encoding: "utf8", maxBuffer: 1 << 24 },
  );
  return JSON.parse(out.trim().split("\n").pop()!) as {
    count: number;
    ms: number;
    cpuMs: number;
    firstSearchMs?: number;
    heapMiB: number;
    rssMiB: number;
  };
}

const results: Record<string, unknown>[] = [];
const range = (values: number[]) => `${round(Math.min(...values))}-${round(Math.max(...values))}`;
for (const n of sizes) {
  const { dir } = await skillTree(n);
  // The snapshot a previous process left (written the way any registry writes it), outside the racy window.
  const newest = statSync(dir).mtimeMs;
  if (Date.now() - newest < 2500) await new Promise((resolve) => setTimeout(resolve, 2500));
  const snapshotFile = join(mkdtempSync(join(tmpdir(), "skillgraph-bench-snapshot-")), "registry.json");
  // With its search index beside it (what a registry leaves once it has searched), restored by the first search.
  await (
    await createSkillRegistry({ sources: [skillsFromDirectory(dir)], snapshot: snapshotFile, searchIndex: "eager" })
  ).close();
  const snapshotBytes = statSync(snapshotFile).size;
  const searchIndexBytes = statSync(`${snapshotFile}.search`).size;
  const cold: number[] = [];
  const coldSnapshot: number[] = [];
  const deepagents: number[] = [];
  const firstSearch: number[] = [];
  const firstSearchRestored: number[] = [];
  const naive: number[] = [];
  const cpu: Record<"registry" | "naive" | "snapshot", number[]> = { registry: [], naive: [], snapshot: [] };
  const loadAverage: number[] = [];
  const heap: number[] = [];
  const naiveHeap: number[] = [];
  for (let rep = 0; rep < coldReps; rep++) {
    // Rotate the order so no arm always runs on a warmer page cache.
    const order = ["registry", "naive", "snapshot", "deepagents"] as const;
    const arms = order.map((_, i) => order[(i + rep) % order.length]!);
    for (const arm of arms) {
      if (arm === "deepagents") {
        if (!peerProblem) deepagents.push(deepagentsColdMs(n));
        continue;
      }
      const sampleResult = child(arm, dir, snapshotFile);
      ({ registry: cold, naive, snapshot: coldSnapshot })[arm].push(sampleResult.ms);
      cpu[arm].push(sampleResult.cpuMs);
      loadAverage.push(loadavg()[0]!);
      if (arm === "registry" && sampleResult.firstSearchMs !== undefined) firstSearch.push(sampleResult.firstSearchMs);
      if (arm === "snapshot" && sampleResult.firstSearchMs !== undefined)
        firstSearchRestored.push(sampleResult.firstSearchMs);
      if (arm !== "snapshot") (arm === "registry" ? heap : naiveHeap).push(sampleResult.heapMiB);
    }
  }

  const registry = await createSkillRegistry({ sources: [skillsFromDirectory(dir)], snapshot: false });
  const reloadUnchanged = await sample(5, () => registry.reload());
  const target = join(dir, registry.list()[Math.floor(n / 2)]!.name, "SKILL.md");
  const original = readFileSync(target, "utf8");
  const reloadOneChanged = await sample(5, async () => {
    writeFileSync(target, `${original}\n<!-- touched ${Math.random()} -->\n`);
    utimesSync(target, new Date(), new Date(Date.now() + Math.random() * 1e6));
    await registry.reload();
  });
  writeFileSync(target, original);
  await registry.reload();

  // Watcher: from writing an edit to the registry serving it (debounce 50 ms included).
  const watched = await createSkillRegistry({ sources: [skillsFromDirectory(dir)], snapshot: false, watch: true });
  const watchName = registry.list()[Math.floor(n / 3)]!.name;
  const watchTarget = join(dir, watchName, "SKILL.md");
  const watchOriginal = readFileSync(watchTarget, "utf8");
  const watchLatency: number[] = [];
  for (let i = 0; i < 5; i++) {
    const marker = `watched ${i} ${Math.random()}`;
    const start = performance.now();
    writeFileSync(watchTarget, `---\nname: ${watchName}\ndescription: ${marker}\n---\n\nEdited.\n`);
    while (watched.get(watchName)?.description !== marker) {
      if (performance.now() - start > 30_000) throw new Error("watcher did not see the edit in 30 s");
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    watchLatency.push(performance.now() - start);
  }
  await watched.close();
  writeFileSync(watchTarget, watchOriginal);

  const skills = registry.list();
  const renderBudgeted = await sample(50, () => renderSkillsPrompt(skills));
  const renderFull = await sample(20, () =>
    renderSkillsPrompt(skills, { budget: { maxChars: Number.MAX_SAFE_INTEGER } }),
  );
  const budgeted = renderSkillsPrompt(skills);
  const searchMs = await sample(
    queries.length * 5,
    (() => {
      let i = 0;
      return () => registry.search(queries[i++ % queries.length]!, { limit: 5 });
    })(),
  );

  const deepagentsMs = deepagents.length > 0 ? median(deepagents) : undefined;
  const row = {
    n,
    coldLoadMs: round(median(cold)),
    coldLoadSnapshotMs: round(median(coldSnapshot)),
    naiveFullReadMs: round(median(naive)),
    deepagentsColdMs: deepagentsMs === undefined ? null : round(deepagentsMs),
    coldVsNaive: round(median(cold) / median(naive)),
    coldSnapshotVsNaive: round(median(coldSnapshot) / median(naive), 3),
    coldVsDeepagents: deepagentsMs === undefined ? null : round(median(cold) / deepagentsMs, 3),
    coldSnapshotVsDeepagents: deepagentsMs === undefined ? null : round(median(coldSnapshot) / deepagentsMs, 3),
    coldRangeMs: range(cold),
    coldSnapshotRangeMs: range(coldSnapshot),
    naiveRangeMs: range(naive),
    deepagentsRangeMs: deepagents.length > 0 ? range(deepagents) : null,
    // CPU time of the same loads (user + system, all threads): less sensitive to other work on the machine.
    coldLoadCpuMs: round(median(cpu.registry)),
    coldLoadSnapshotCpuMs: round(median(cpu.snapshot)),
    naiveCpuMs: round(median(cpu.naive)),
    coldVsNaiveCpu: round(median(cpu.registry) / median(cpu.naive)),
    loadAverage1m: `${round(Math.min(...loadAverage))}-${round(Math.max(...loadAverage))}`,
    snapshotBytes,
    firstSearchBuildsIndexMs: round(median(firstSearch)),
    // The first search after a cold start with a snapshot restores the index from `<snapshot>.search` instead.
    firstSearchRestoresIndexMs: round(median(firstSearchRestored)),
    restoreVsBuildIndex: round(median(firstSearchRestored) / median(firstSearch), 3),
    searchIndexBytes,
    reloadUnchangedMs: round(median(reloadUnchanged)),
    reloadUnchangedVsCold: round(median(reloadUnchanged) / median(cold), 3),
    reloadOneChangedMs: round(median(reloadOneChanged)),
    reloadOneChangedVsCold: round(median(reloadOneChanged) / median(cold), 3),
    watchEditVisibleMs: round(median(watchLatency)),
    watchEditVisibleMaxMs: round(Math.max(...watchLatency)),
    renderPromptBudgetedMs: round(median(renderBudgeted), 3),
    renderPromptBudgetLevel: budgeted.report.level,
    renderPromptBudgetedChars: budgeted.text.length,
    renderPromptUnbudgetedMs: round(median(renderFull), 3),
    searchMedianMs: round(median(searchMs), 3),
    searchP95Ms: round(percentile(searchMs, 95), 3),
    heapAfterLoadMiB: round(median(heap)),
    naiveHeapMiB: round(median(naiveHeap)),
    heapVsNaive: round(median(heap) / median(naiveHeap)),
  };
  results.push(row);
  console.log(JSON.stringify(row));
}

// Store-backed registry (skills published to a LangGraph PostgresStore on a local PostgreSQL started for the run):
// publish, cold load in a fresh registry and connection, reload with nothing changed (one manifest read), reload after
// one skill was republished. Skipped with --no-store or when PostgreSQL cannot be started here.
const storeRows: Record<string, unknown>[] = [];
if (!process.argv.includes("--no-store")) {
  const { startTestPostgres } = await import("../test/setup/postgres-server.js");
  const { PostgresStore } = await import("@langchain/langgraph-checkpoint-postgres/store");
  const { publishSkillsToStore, skillsFromStore } = await import("../packages/langgraph/src/store.js");
  let server: Awaited<ReturnType<typeof startTestPostgres>> | undefined;
  try {
    server = await startTestPostgres();
  } catch (error) {
    console.log(`store arm skipped: ${(error as Error).message}`);
  }
  for (const n of server ? sizes.filter((size) => size <= 1000) : []) {
    const { dir } = await skillTree(n);
    const schema = `bench_${n}_${Date.now()}`;
    const writer = PostgresStore.fromConnString(server!.url, { schema });
    await writer.setup();
    let started = performance.now();
    await publishSkillsToStore(writer, dir, { strict: false });
    const publishMs = performance.now() - started;
    const loads: number[] = [];
    for (let rep = 0; rep < coldReps; rep++) {
      const reader = PostgresStore.fromConnString(server!.url, { schema });
      started = performance.now();
      const storeRegistry = await createSkillRegistry({ sources: [skillsFromStore(reader)] });
      loads.push(performance.now() - started);
      if (storeRegistry.list().length !== n)
        throw new Error(`store registry has ${storeRegistry.list().length} skills, expected ${n}`);
      await reader.stop();
    }
    const reader = PostgresStore.fromConnString(server!.url, { schema });
    const storeRegistry = await createSkillRegistry({ sources: [skillsFromStore(reader)] });
    const reloadUnchanged = await sample(5, () => storeRegistry.reload());
    const oneSkill = writeTree({ [`${storeRegistry.list()[0]!.name}/SKILL.md`]: "" });
    const firstName = storeRegistry.list()[0]!.name;
    const reloadOne = await sample(3, async () => {
      writeFileSync(
        join(oneSkill, firstName, "SKILL.md"),
        `---\nname: ${firstName}\ndescription: Republished ${Math.random()}.\n---\nBody.\n`,
      );
      await publishSkillsToStore(writer, oneSkill, { strict: false });
      const report = await storeRegistry.reload();
      if (report.reread !== 1) throw new Error(`expected one re-read, got ${report.reread}`);
    });
    await reader.stop();
    await writer.stop();
    const row = {
      n,
      publishMs: round(publishMs),
      storeColdLoadMs: round(median(loads)),
      storeReloadUnchangedMs: round(median(reloadUnchanged), 2),
      storePublishOneAndReloadMs: round(median(reloadOne)),
    };
    storeRows.push(row);
    console.log(JSON.stringify(row));
  }
  await server?.stop();
}

console.table(results);
// The cold-start goals at a glance: with a snapshot against deepagents, without one against the naive loader.
console.table(
  results.map((row) => ({
    n: row.n,
    snapshotMs: row.coldLoadSnapshotMs,
    noSnapshotMs: row.coldLoadMs,
    naiveMs: row.naiveFullReadMs,
    deepagentsMs: row.deepagentsColdMs,
    snapshotVsDeepagents: row.coldSnapshotVsDeepagents,
    noSnapshotVsNaive: row.coldVsNaive,
    noSnapshotVsNaiveCpu: row.coldVsNaiveCpu,
    loadAverage1m: row.loadAverage1m,
  })),
);
if (storeRows.length > 0) console.table(storeRows);
mkdirSync(join(import.meta.dirname, "results"), { recursive: true });
writeFileSync(
  join(import.meta.dirname, "results", "core.json"),
  JSON.stringify({ node: process.version, date: new Date().toISOString(), quick, results, store: storeRows }, null, 2),
);
