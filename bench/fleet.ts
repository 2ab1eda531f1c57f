// Fleet benchmark: the scenario of test/fleet.int.test.ts (serving processes on PostgreSQL through kill -9, a
// PostgreSQL restart and a skill republish) with larger numbers: turns per second, p50/p95 per turn, recovery times.
// Run: node --import tsx bench/fleet.ts [--quick] [--threads=N] [--turns=N] [--workers=N]
// Writes bench/results/fleet.json.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestPostgres } from "../test/setup/postgres-server.js";
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

const server = await startTestPostgres();
try {
  const report = await runFleetScenario({
    postgresUrl: server.url,
    restartPostgres: () => server.restart(),
    executor,
    ...size,
  });
  const figures = {
    ...size,
    executor,
    answered: report.answered.length,
    unanswered: report.unanswered.length,
    wallSeconds: report.wallMs / 1000,
    turnsPerSecond: report.turnsPerSecond,
    p50Ms: report.p50Ms,
    p95Ms: report.p95Ms,
    retried: report.retried,
    errorsSeen: report.errorsSeen,
    recovery: report.recovery,
  };
  console.log(JSON.stringify(figures, null, 2));
  const results = join(import.meta.dirname, "results");
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, "fleet.json"), `${JSON.stringify(figures, null, 2)}\n`);
  if (report.unanswered.length > 0) process.exitCode = 1;
} finally {
  server.stop();
}
