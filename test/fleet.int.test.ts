// A fleet on PostgreSQL that loses nothing: three serving processes (createAgent + skills middleware + shell hook +
// the PostgreSQL checkpointer with pruning and leases, skills from a PostgresStore), 60 threads × 8 turns against the
// scripted OpenAI server, turns through a turn scheduler per process. During the run one process is SIGKILLed (its
// threads fail over to the others) and restarted, PostgreSQL is restarted and the skill is republished. Figures are
// printed, never asserted; `pnpm bench fleet` runs the same scenario larger.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { closeCheckpointer, createCheckpointer, inspectSession } from "../packages/checkpoint/src/index.js";
import { saverBackend } from "../packages/checkpoint/src/store/saver-backend.js";
import { bubblewrapWorks } from "./security/attack-harness.js";
import { startTestPostgres, type TestPostgresServer } from "./setup/postgres-server.js";
import { countReplies } from "./support/fleet-replies.js";
import { runFleetScenario } from "./support/fleet-scenario.js";

const unavailable = inject("postgresUrl") ? undefined : `no PostgreSQL server: ${inject("postgresUnavailable")}`;
const sandbox = bubblewrapWorks();
let server: TestPostgresServer | undefined;

beforeAll(async () => {
  if (!unavailable) server = await startTestPostgres(); // its own server: this test restarts it
}, 120_000);
afterAll(() => server?.stop());

describe.skipIf(unavailable !== undefined || (!sandbox && process.env.CI !== "true"))(
  "a fleet of three processes",
  () => {
    it("loses no answered turn through kill -9, a PostgreSQL restart and a skill republish; every thread resumes", async () => {
      const report = await runFleetScenario({
        postgresUrl: server!.url,
        restartPostgres: () => server!.restart(),
        executor: "bubblewrap",
        workers: 3,
        threads: 60,
        turns: 8,
        // Through the turn scheduler, with a short queue so some turns are refused `turns-busy` and retried, and the
        // takeover fast path (resumed turns alone, written once at their end, first for pool connections, the normal
        // turns running paused at their next step boundary meanwhile; clients backing off wake when their process dies).
        scheduler: { concurrency: 8, maxQueued: 8, resumedHeadroom: 4, resumedAlone: true, pauseForResumed: true },
        fastTakeover: true,
        wakeOnExit: true,
      });
      console.log(
        `fleet: ${report.answered.length} turns in ${(report.wallMs / 1000).toFixed(1)} s = ${report.turnsPerSecond.toFixed(1)} turns/s; ` +
          `per turn p50 ${report.p50Ms} ms, p95 ${report.p95Ms} ms; retried ${report.retried} (${JSON.stringify(report.errorsSeen)}); ` +
          `${report.busyRefusals} busy refusals; recovery: kill -9 → ${report.recovery.killMs} ms to a failed-over thread's answer ` +
          `(takeover p50 ${report.takeover.ms.p50} ms, p95 ${report.takeover.ms.p95} ms; the killed process restarted in ${report.recovery.restartReadyMs} ms), ` +
          `PostgreSQL restart → ${report.recovery.postgresRestartMs} ms, ` +
          `republish seen by all → ${report.recovery.republishMs} ms`,
      );
      expect(report.unanswered).toEqual([]);
      expect(report.answered).toHaveLength(60 * 8);
      expect(report.skillSeen.every((seen) => seen?.includes("version v2"))).toBe(true);
      // every answered turn's user message and answer stored exactly once: a retry after the reply was stored
      // returns it instead of asking again
      expect(await countReplies(report)).toEqual({ lost: [], duplicated: [] });

      const saver = await createCheckpointer(report.checkpointUrl);
      try {
        for (const thread of report.threads) {
          const session = await inspectSession(saver, thread);
          const humans = session.messages
            .filter((message) => message.type === "human")
            .map((message) => message.content);
          expect(humans.at(-1)).toBe(`turn ${thread}-resume`); // resumed by another process
        }
        const backend = saverBackend(saver);
        if (backend.kind !== "postgres") throw new Error("expected PostgreSQL");
        const live = await backend.pool.query(
          `SELECT count(*)::int AS n FROM "${backend.schema}".skillgraph_session_leases WHERE expires_at > (extract(epoch from clock_timestamp()) * 1000)::bigint`,
        );
        expect(live.rows[0].n).toBe(0); // no lease stuck
      } finally {
        await closeCheckpointer(saver);
      }
    }, 600_000);
  },
);
