// Fleet benchmark: the scenario of test/fleet.int.test.ts (serving processes on PostgreSQL through kill -9, a
// PostgreSQL restart and a skill republish) with larger numbers: turns per second, p50/p95 per turn, recovery times,
// and the takeover time (kill → first answer on each thread the killed process served, its threads failing over to
// the busy survivors) with every turn run at once, through createTurnScheduler, and through it with the takeover fast
// path, and with the fast path and admission control (normal turns past `concurrency` refused `turns-busy` with a
// retry-after hint instead of waiting), and with the normal turns running paused at their step boundaries while a
// resumed turn runs (`pauseForResumed`; MODES below), in the same run (each on a fresh PostgreSQL server, in turn),
// judged against the 2 s goal; with where the takeover turns' time went, the load average around each run, and the
// answered turns lost or stored twice (counted in the database after each run).
// Run: node --import tsx bench/fleet.ts [--quick] [--threads=N] [--turns=N] [--workers=N] [--concurrency=N]
//   [--max-queued=N] [--resumed-headroom=N] [--fast-headroom=N] [--rounds=N]
//   [--modes=at-once,scheduler,fast,admit,pause,admit-pause]
//   (rounds: how many times to run the modes, alternating their order)
// Writes bench/results/fleet.json.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { startTestPostgres } from "../test/setup/postgres-server.js";
import { countReplies } from "../test/support/fleet-replies.js";
import { runFleetScenario } from "../test/support/fleet-scenario.js";

const quick = process.argv.includes("--quick");
const option = (name: string, fallback: number) => {
  const given = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return given ? Number(given.slice(name.length + 3)) : fallback;
};
const size = {
  workers: option("workers", 3),
  threads: option("threads", quick ? 60 : 300),
  turns: option("turns", quick ? 8 : 12),
};
let executor: "bubblewrap" | "local" = "bubblewrap";
try {
  execFileSync("bwrap", ["--ro-bind", "/", "/", "--unshare-all", "--", "/bin/true"], { stdio: "ignore" });
} catch {
  executor = "local";
}

const scheduler = {
  concurrency: option("concurrency", 8),
  maxQueued: option("max-queued", 32),
  resumedHeadroom: option("resumed-headroom", 4),
};
const rounds = option("rounds", 1);
const GOAL_MS = 2000;

/**
 * The settings compared: every turn at once; through the scheduler; and through it with the takeover fast path
 * (`resumedAlone`, resumed turns with `durability: "exit"`, the client failing over at once); and the fast path with
 * `admission: "refuse"` (no normal turn waits in a process: past `concurrency` it is refused, the client retrying after
 * the hinted time).
 */
const MODES = {
  "at-once": {},
  scheduler: { scheduler },
  // With resumedAlone no normal turn starts beside resumed ones, so these may take more slots.
  fast: {
    scheduler: {
      ...scheduler,
      resumedHeadroom: option("fast-headroom", scheduler.resumedHeadroom),
      resumedAlone: true,
    },
    fastTakeover: true,
  },
  admit: {
    scheduler: {
      ...scheduler,
      resumedHeadroom: option("fast-headroom", scheduler.resumedHeadroom),
      resumedAlone: true,
      admission: "refuse",
    },
    fastTakeover: true,
  },
  // The fast path, normal turns paused at their step boundaries while a resumed turn runs, clients waking from a
  // back-off when their process dies.
  pause: {
    scheduler: {
      ...scheduler,
      resumedHeadroom: option("fast-headroom", scheduler.resumedHeadroom),
      resumedAlone: true,
      pauseForResumed: true,
    },
    fastTakeover: true,
    wakeOnExit: true,
  },
  // The same with admission "refuse".
  "admit-pause": {
    scheduler: {
      ...scheduler,
      resumedHeadroom: option("fast-headroom", scheduler.resumedHeadroom),
      resumedAlone: true,
      admission: "refuse",
      pauseForResumed: true,
    },
    fastTakeover: true,
    wakeOnExit: true,
  },
} as const;
const modeNames: Record<Mode, string> = {
  "at-once": "all at once",
  scheduler: "scheduler",
  fast: "fast takeover, scheduler",
  admit: "fast takeover + admission 'refuse', scheduler",
  pause: "fast takeover + pauseForResumed + clients waking, scheduler",
  "admit-pause": "fast takeover + admission 'refuse' + pauseForResumed + clients waking, scheduler",
};
type Mode = keyof typeof MODES;
const modesGiven = process.argv.find((arg) => arg.startsWith("--modes="))?.slice("--modes=".length);
const modes = (modesGiven ? modesGiven.split(",") : Object.keys(MODES)) as Mode[];
for (const mode of modes)
  if (!(mode in MODES)) throw new Error(`unknown mode '${mode}' (${Object.keys(MODES).join(", ")})`);
const loads = () => loadavg().map((value) => Number(value.toFixed(1)));

/** One run of the scenario on a fresh server, in one of the modes. */
async function runOnce(mode: Mode) {
  const server = await startTestPostgres();
  const loadBefore = loads();
  try {
    const report = await runFleetScenario({
      postgresUrl: server.url,
      restartPostgres: () => server.restart(),
      executor,
      ...size,
      ...MODES[mode],
    });
    const stored = await countReplies(report);
    return {
      mode,
      loadAverage: { before: loadBefore, after: loads() },
      scheduler: ("scheduler" in MODES[mode] ? MODES[mode].scheduler : "none (every turn at once)") as
        | {
            concurrency: number;
            maxQueued: number;
            resumedHeadroom: number;
            resumedAlone?: boolean;
            admission?: "queue" | "refuse";
          }
        | string,
      answered: report.answered.length,
      unanswered: report.unanswered.length,
      lost: stored.lost.length,
      duplicated: stored.duplicated.length,
      wallSeconds: report.wallMs / 1000,
      turnsPerSecond: report.turnsPerSecond,
      p50Ms: report.p50Ms,
      p95Ms: report.p95Ms,
      retried: report.retried,
      busyRefusals: report.busyRefusals,
      errorsSeen: report.errorsSeen,
      recovery: report.recovery,
      takeover: {
        threads: report.takeover.threads,
        p50Ms: report.takeover.ms.p50,
        p95Ms: report.takeover.ms.p95,
        withinGoal: report.takeover.ms.p95 <= GOAL_MS,
        killToSendMs: report.takeover.killToSendMs,
        turns: report.takeover.turns,
      },
      allTurns: report.takeover.all,
    };
  } finally {
    server.stop();
  }
}

/** Where the taken-over threads' first answered turns spent their time, p50 of each phase. */
function phases(turns: Awaited<ReturnType<typeof runOnce>>["takeover"]["turns"]): string {
  const p50 = (part: { p50: number }) => part.p50;
  return (
    `takeover turns p50: ${p50(turns.outsideWorkerMs)} ms outside the worker, lease ${p50(turns.leaseMs)}, ` +
    `queued ${p50(turns.queuedMs)}, run ${p50(turns.runMs)} (resume to first model call ${p50(turns.resumeMs)}, ` +
    `${p50(turns.checkpointReads)} checkpoint reads ${p50(turns.checkpointReadMs)}, model ${p50(turns.modelMs)}, ` +
    `${p50(turns.checkpointWrites)} writes ${p50(turns.checkpointWriteMs)}, pool wait ${p50(turns.poolWaitMs)})`
  );
}

const runs: Array<Awaited<ReturnType<typeof runOnce>>> = [];
for (let round = 0; round < rounds; round += 1) {
  for (const mode of round % 2 === 0 ? modes : [...modes].reverse()) runs.push(await runOnce(mode));
}
const summary = runs.map(
  (run) =>
    `${typeof run.scheduler === "string" ? modeNames[run.mode] : `${modeNames[run.mode]} ${run.scheduler.concurrency}/${run.scheduler.maxQueued}/+${run.scheduler.resumedHeadroom}`}: ` +
    `takeover p50 ${run.takeover.p50Ms} ms, p95 ${run.takeover.p95Ms} ms over ${run.takeover.threads} threads ` +
    `(goal ${GOAL_MS} ms: ${run.takeover.withinGoal ? "met" : "missed"}); ${run.turnsPerSecond.toFixed(1)} turns/s, ` +
    `per turn p50 ${run.p50Ms} ms p95 ${run.p95Ms} ms, ${run.busyRefusals} busy refusals; ` +
    `${run.unanswered} unanswered, ${run.lost} lost, ${run.duplicated} duplicated; ${phases(run.takeover.turns)}; ` +
    `load average ${run.loadAverage.before.join("/")} → ${run.loadAverage.after.join("/")}`,
);
const figures = { ...size, executor, goalMs: GOAL_MS, runs, summary };
console.log(JSON.stringify(figures, null, 2));
for (const line of summary) console.log(line);
const results = join(import.meta.dirname, "results");
mkdirSync(results, { recursive: true });
writeFileSync(join(results, "fleet.json"), `${JSON.stringify(figures, null, 2)}\n`);
if (runs.some((run) => run.unanswered + run.lost + run.duplicated > 0)) process.exitCode = 1;
