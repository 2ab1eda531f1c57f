// Checkpoint storage benchmark: bytes and rows after 50 / 200 / 1000 turns with the classic ("full") vs delta messages
// channel, with and without pruning; bytes the skills state adds per checkpoint; SQLite vs PostgreSQL write latency per step;
// what the session lease costs (acquire + release, and a turn through `lease.protect` against the same turn without).
// Run: node --import tsx bench/checkpoint-storage.ts [--quick]   Writes bench/results/checkpoint.json.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { buildSessionGraph, userTurn } from "../packages/checkpoint/src/__fixtures__/session-graph.js";
import {
  acquireSessionLease,
  checkpointStats,
  closeCheckpointer,
  createCheckpointer,
  withPruning,
} from "../packages/checkpoint/src/index.js";
import { startTestPostgres } from "../test/setup/postgres-server.js";

type Saver = Awaited<ReturnType<typeof createCheckpointer>>;
const quick = process.argv.includes("--quick");
const turnCounts = quick ? [20, 50] : [50, 200, 1000];
/** The classic channel re-serializes the whole history at every step (quadratic): past this many turns it is not run. */
const fullTurnLimit = quick ? 50 : 200;
const text = (seed: string) => `${seed} ${"lorem ipsum dolor sit amet ".repeat(20)}`.slice(0, 500);
const pruning = { keepLast: 10, onWrite: { every: 10 } } as const;
const work = mkdtempSync(join(tmpdir(), "sg-bench-ckpt-"));

/** Runs `turns` user turns (500-char user message, 500-char reply) on a fresh thread; returns storage figures. */
async function runSession(saver: Saver, messages: "full" | "delta", turns: number, threadId: string) {
  const graph = buildSessionGraph({
    checkpointer: saver,
    messages,
    script: Array.from({ length: turns + 1 }, (_, k) =>
      k === 0 ? { calls: [{ name: "load_skill", args: { name: "pdf" } }] } : { say: text(`reply ${k}`) },
    ),
    lookup: (name) => ({ hash: `sha256-of-${name}-`.padEnd(64, "0") }),
  });
  const started = performance.now();
  for (let turn = 0; turn < turns; turn += 1)
    await graph.invoke(userTurn(text(`question ${turn}`), `u${turn}`), { configurable: { thread_id: threadId } });
  const seconds = (performance.now() - started) / 1000;
  const state = await graph.getState({ configurable: { thread_id: threadId } });
  return { seconds, messagesInState: (state.values.messages as unknown[]).length };
}

async function storageGrowth() {
  const rows: Array<Record<string, unknown>> = [];
  for (const messages of ["full", "delta"] as const) {
    for (const pruned of [false, true]) {
      for (const turns of turnCounts) {
        if (messages === "full" && turns > fullTurnLimit) {
          rows.push({
            messages,
            pruned,
            turns,
            skipped: `full channel beyond ${fullTurnLimit} turns: quadratic growth, see the smaller runs`,
          });
          continue;
        }
        const file = join(work, `${messages}-${pruned ? "pruned" : "plain"}-${turns}.db`);
        const base = await createCheckpointer(`sqlite:${file}`);
        const saver = pruned ? withPruning(base, pruning) : base;
        const { seconds, messagesInState } = await runSession(saver, messages, turns, "bench");
        const stats = await checkpointStats(base, "bench");
        (base as unknown as { db: { pragma(sql: string): unknown } }).db.pragma("wal_checkpoint(TRUNCATE)");
        await closeCheckpointer(base);
        const row = {
          messages,
          pruned,
          turns,
          ...stats,
          fileBytes: statSync(file).size,
          messagesInState,
          seconds: Number(seconds.toFixed(2)),
        };
        rows.push(row);
        console.log(
          `${messages.padEnd(5)} ${pruned ? "pruned" : "plain "} ${String(turns).padStart(4)} turns: ${(stats.bytes / 1e6).toFixed(2).padStart(8)} MB payload, ${String(stats.checkpoints).padStart(5)} checkpoints, ${String(stats.writes).padStart(5)} writes, file ${(row.fileBytes / 1e6).toFixed(2)} MB, ${messagesInState} messages, ${row.seconds}s`,
        );
      }
    }
  }
  return rows;
}

/** Bytes of checkpoints with N loaded skills minus the same without skills (SQLite stores every channel in every checkpoint). */
async function skillsStateBytes() {
  const saver = await createCheckpointer("memory:");
  const out: Array<{ loadedSkills: number; bytes: number }> = [];
  for (const count of [1, 5, 20]) {
    const loaded: Record<string, unknown> = {};
    for (let i = 0; i < count; i += 1) {
      const name = `skill-number-${i}`;
      loaded[name] = {
        name,
        mode: "session",
        loadedSeq: i + 1,
        lastUsedSeq: i + 1,
        hash: "f".repeat(64),
        docs: ["reference/forms.md", "scripts/fill.py"],
      };
    }
    const [, bytes] = await saver.serde.dumpsTyped({ seq: count, loaded });
    out.push({ loadedSkills: count, bytes: bytes.byteLength });
    console.log(
      `skills state with ${String(count).padStart(2)} loaded skills: ${bytes.byteLength} bytes per checkpoint that stores it`,
    );
  }
  return out;
}

/** put / putWrites latency of one backend over a delta-channel session. */
async function writeLatency(name: string, url: string, turns: number) {
  const saver = await createCheckpointer(url);
  const puts: number[] = [];
  const writes: number[] = [];
  const put = saver.put.bind(saver);
  const putWrites = saver.putWrites.bind(saver);
  saver.put = async (...args) => {
    const t = performance.now();
    try {
      return await put(...args);
    } finally {
      puts.push(performance.now() - t);
    }
  };
  saver.putWrites = async (...args) => {
    const t = performance.now();
    try {
      return await putWrites(...args);
    } finally {
      writes.push(performance.now() - t);
    }
  };
  const started = performance.now();
  await runSession(saver, "delta", turns, `latency-${name}`);
  const perTurn = (performance.now() - started) / turns;
  await closeCheckpointer(saver);
  const pct = (list: number[], p: number) =>
    Number([...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * p))]!.toFixed(3));
  const result = {
    backend: name,
    turns,
    puts: puts.length,
    putP50Ms: pct(puts, 0.5),
    putP95Ms: pct(puts, 0.95),
    putWritesP50Ms: pct(writes, 0.5),
    putWritesP95Ms: pct(writes, 0.95),
    msPerTurn: Number(perTurn.toFixed(2)),
  };
  console.log(
    `${name.padEnd(8)} put p50 ${result.putP50Ms} ms p95 ${result.putP95Ms} ms; putWrites p50 ${result.putWritesP50Ms} ms p95 ${result.putWritesP95Ms} ms; ${result.msPerTurn} ms per turn`,
  );
  return result;
}

const p50 = (list: number[]) => Number([...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!.toFixed(3));

/** Session lease cost on one backend: acquire + release p50, and ms per turn with and without `protect` (interleaved). */
async function leaseCost(name: string, url: string, turns: number) {
  const saver = await createCheckpointer(url);
  const cycles: number[] = [];
  for (let index = 0; index < 30; index += 1) {
    const started = performance.now();
    const lease = await acquireSessionLease(saver, `lease-cycle-${index % 3}`);
    await lease.release();
    cycles.push(performance.now() - started);
  }
  const lease = await acquireSessionLease(saver, "lease-protected");
  const plain = buildSessionGraph({ checkpointer: saver, messages: "delta", script: [], lookup: () => undefined });
  const guarded = buildSessionGraph({
    checkpointer: lease.protect(saver),
    messages: "delta",
    script: [],
    lookup: () => undefined,
  });
  const without: number[] = [];
  const withLease: number[] = [];
  for (let turn = 0; turn < turns; turn += 1) {
    let started = performance.now();
    await plain.invoke(userTurn(text(`q ${turn}`), `p${turn}`), { configurable: { thread_id: "lease-plain" } });
    without.push(performance.now() - started);
    started = performance.now();
    await guarded.invoke(userTurn(text(`q ${turn}`), `g${turn}`), { configurable: { thread_id: "lease-protected" } });
    withLease.push(performance.now() - started);
  }
  await lease.release();
  await closeCheckpointer(saver);
  const result = {
    backend: name,
    acquireReleaseP50Ms: p50(cycles),
    turnP50Ms: p50(without),
    protectedTurnP50Ms: p50(withLease),
    ratio: Number((p50(withLease) / p50(without)).toFixed(3)),
  };
  console.log(
    `${name.padEnd(8)} acquire+release p50 ${result.acquireReleaseP50Ms} ms; turn p50 ${result.turnP50Ms} ms, through lease.protect ${result.protectedTurnP50Ms} ms (x${result.ratio})`,
  );
  return result;
}

try {
  console.log(
    "Storage after N turns (SQLite, 500-char user message + 500-char reply per turn; pruning keepLast 10, on write every 10):",
  );
  const growth = await storageGrowth();
  console.log("\nSkills state size:");
  const skills = await skillsStateBytes();
  console.log("\nWrite latency per step:");
  const latencyTurns = quick ? 20 : 100;
  const latency = [await writeLatency("sqlite", `sqlite:${join(work, "latency.db")}`, latencyTurns)];
  console.log("\nSession lease:");
  const lease = [await leaseCost("sqlite", `sqlite:${join(work, "lease.db")}`, latencyTurns)];
  let postgres: Awaited<ReturnType<typeof startTestPostgres>> | undefined;
  try {
    postgres = await startTestPostgres();
    latency.push(await writeLatency("postgres", postgres.url, latencyTurns));
    lease.push(await leaseCost("postgres", postgres.url, latencyTurns));
  } catch (error) {
    console.log(`postgres: not measured (${(error as Error).message})`);
  } finally {
    postgres?.stop();
  }
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    quick,
    pruning,
    storage: growth,
    skillsState: skills,
    writeLatency: latency,
    lease,
  };
  mkdirSync(join(import.meta.dirname, "results"), { recursive: true });
  writeFileSync(join(import.meta.dirname, "results/checkpoint.json"), `${JSON.stringify(results, null, 2)}\n`);
  console.log("\nwrote bench/results/checkpoint.json");
} finally {
  rmSync(work, { recursive: true, force: true });
}
