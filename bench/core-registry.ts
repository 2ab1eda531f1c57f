// Core benchmark: cold load, reload (unchanged and one file changed), prompt rendering, search, memory,
// for 100 / 1 000 / 10 000 skills generated from the corpus. Baseline (same run): a naive loader that
// reads and parses every SKILL.md without caching. Run: pnpm bench (or node --expose-gc --import tsx bench/core-registry.ts [--quick]).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSkillRegistry, renderSkillsPrompt, skillsFromDirectory } from "../packages/core/src/index.js";
import { skillTree } from "./support/skill-trees.js";
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

function child(mode: "registry" | "naive", dir: string) {
  const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", join(import.meta.dirname, "core-child.ts"), mode, dir], { encoding: "utf8", maxBuffer: 1 << 24 });
  return JSON.parse(out.trim().split("\n").pop()!) as { count: number; ms: number; firstSearchMs?: number; heapMiB: number; rssMiB: number };
}

const results: Record<string, unknown>[] = [];
for (const n of sizes) {
  const { dir } = await skillTree(n);
  const cold: number[] = [];
  const firstSearch: number[] = [];
  const naive: number[] = [];
  const heap: number[] = [];
  const naiveHeap: number[] = [];
  for (let rep = 0; rep < coldReps; rep++) {
    // Alternate the order so neither arm always runs on a warmer page cache.
    const arms = rep % 2 === 0 ? (["registry", "naive"] as const) : (["naive", "registry"] as const);
    for (const arm of arms) {
      const sampleResult = child(arm, dir);
      (arm === "registry" ? cold : naive).push(sampleResult.ms);
      if (sampleResult.firstSearchMs !== undefined) firstSearch.push(sampleResult.firstSearchMs);
      (arm === "registry" ? heap : naiveHeap).push(sampleResult.heapMiB);
    }
  }

  const registry = await createSkillRegistry({ sources: [skillsFromDirectory(dir)] });
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

  const skills = registry.list();
  const renderBudgeted = await sample(50, () => renderSkillsPrompt(skills));
  const renderFull = await sample(20, () => renderSkillsPrompt(skills, { budget: { maxChars: Number.MAX_SAFE_INTEGER } }));
  const budgeted = renderSkillsPrompt(skills);
  const searchMs = await sample(queries.length * 5, (() => {
    let i = 0;
    return () => registry.search(queries[i++ % queries.length]!, { limit: 5 });
  })());

  const row = {
    n,
    coldLoadMs: round(median(cold)),
    naiveFullReadMs: round(median(naive)),
    coldVsNaive: round(median(cold) / median(naive)),
    firstSearchBuildsIndexMs: round(median(firstSearch)),
    reloadUnchangedMs: round(median(reloadUnchanged)),
    reloadUnchangedVsCold: round(median(reloadUnchanged) / median(cold), 3),
    reloadOneChangedMs: round(median(reloadOneChanged)),
    reloadOneChangedVsCold: round(median(reloadOneChanged) / median(cold), 3),
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

console.table(results);
mkdirSync(join(import.meta.dirname, "results"), { recursive: true });
writeFileSync(join(import.meta.dirname, "results", "core.json"), JSON.stringify({ node: process.version, date: new Date().toISOString(), quick, results }, null, 2));
