// The fleet scenario (test/fleet.int.test.ts at CI size, bench/fleet.ts larger): W serving processes, T threads × N
// turns against the scripted OpenAI server, skills from a PostgresStore, checkpoints in PostgreSQL. During the run one
// process is SIGKILLed (its threads fail over to the other processes, which take their leases over) and restarted (it
// serves in the resume phase), PostgreSQL is restarted once and the skill is republished. The client (this module)
// retries a turn that failed or whose process died (same human message id: a retry replaces, never appends; a retry
// after the process died is marked `resumed`), and one refused with `turns-busy` after a short backoff.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { guardPostgresPool } from "../../packages/checkpoint/src/index.js";
import { publishSkillsToStore } from "../../packages/langgraph/src/store-source/index.js";
import {
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
  type WireMessage,
} from "./openai-compatible-server.js";
import { type LineChild, startLineChild } from "./line-child.js";
import { breakdown, percentile, spread, type Spread, takeoverTimes, type TurnTiming } from "./fleet-figures.js";

const WORKER = "test/support/fleet-worker.ts";

/** Size and setting of a run. */
export interface FleetOptions {
  /** postgres:// URL of a server the scenario may restart. */
  postgresUrl: string;
  /** Restarts that server (returns when it accepts connections again). */
  restartPostgres: () => void;
  executor: "bubblewrap" | "local";
  workers: number;
  threads: number;
  turns: number;
  /** Turns go through createTurnScheduler in each process (taken-over threads first); without it all run at once. */
  scheduler?: {
    concurrency: number;
    maxQueued: number;
    resumedHeadroom: number;
    resumedAlone?: boolean;
    /** `refuse`: normal turns past `concurrency` are refused `turns-busy` at once (the client backs off as hinted). */
    admission?: "queue" | "refuse";
    /** Normal turns already running wait at their next step boundary while a resumed turn runs. */
    pauseForResumed?: boolean;
  };
  /**
   * The takeover fast path: resumed turns run with `durability: "exit"` (one checkpoint write when the turn ends), they
   * and a resumed thread's lease take PostgreSQL connections first (3 of the pool's 10 kept for them), and a client
   * whose process died sends its turn to the next process at once instead of after the 250 ms retry backoff.
   */
  fastTakeover?: boolean;
  /**
   * A client backing off after `turns-busy` wakes as soon as the process that refused it dies and sends the turn to
   * the next process at once (as a client does when its connection drops), instead of sleeping out the hint.
   */
  wakeOnExit?: boolean;
}

/** One answered (or finally failed) turn as the client saw it. */
export interface TurnRecord {
  thread: string;
  id: string;
  worker: number;
  /** Milliseconds from sending (the last attempt) to the answer. */
  ms: number;
  attempts: number;
  answeredAt: number;
  /** Where the answered attempt's time went, as the worker measured it. */
  timing?: TurnTiming;
  /** The worker had just taken the thread's lease over from a holder that had not released it. */
  tookOver: boolean;
}

/** What a run measured and saw. */
export interface FleetReport {
  answered: TurnRecord[];
  unanswered: Array<{ thread: string; id: string; lastError: string }>;
  threads: string[];
  wallMs: number;
  turnsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  /**
   * Milliseconds from each fault to: the first answered turn, sent after the kill, of a thread the killed process
   * served (`killMs`; its threads fail over to the other processes; `restartReadyMs` is the killed process restarted
   * and ready, serving in the resume phase), the first answered turn sent after PostgreSQL restarted, every process
   * seeing the republished skill (measured after the run: an upper bound).
   */
  recovery: {
    killMs: number | undefined;
    restartReadyMs: number | undefined;
    postgresRestartMs: number | undefined;
    republishMs: number | undefined;
  };
  /** What `skill` printed on each process after the republish. */
  skillSeen: Array<string | null>;
  /**
   * Kill → first answer on each thread the killed process served (its threads fail over to the others, which take
   * their leases over while serving their own): p50/p95 over those threads, and where the time of the turns that
   * answered them went; `all` is the same breakdown over every answered turn.
   */
  takeover: {
    threads: number;
    ms: Spread;
    /** From the kill to sending the attempt that was answered (the client seeing the process gone, its backoff). */
    killToSendMs: Spread;
    turns: ReturnType<typeof breakdown>;
    all: ReturnType<typeof breakdown>;
  };
  /** Attempts refused with `turns-busy` (admission control) and retried after a backoff. */
  busyRefusals: number;
  /** Turns whose first attempt failed (retried by the client), with the errors seen. */
  retried: number;
  errorsSeen: Record<string, number>;
  checkpointUrl: string;
  storeUrl: string;
}

/** Writes the fleet skill's folder (version tag in its description and body). */
function writeSkill(root: string, version: string): void {
  const dir = join(root, "fleet-skill");
  mkdirSync(join(dir, "scripts"), { recursive: true });
  writeFileSync(
    join(dir, "SKILL.md"),
    `---\nname: fleet-skill\ndescription: Answers fleet turns, version ${version}. Use for every fleet turn.\n---\n\n# Fleet skill\n\nFLEET-${version.toUpperCase()}: answer each turn by its id.\n`,
  );
  writeFileSync(join(dir, "scripts", "echo.sh"), '#!/bin/sh\necho fleet "$1"\n');
  chmodSync(join(dir, "scripts", "echo.sh"), 0o755);
}

const text = (message: WireMessage | undefined) =>
  typeof message?.content === "string"
    ? message.content
    : (message?.content ?? []).map((part) => part.text ?? "").join("");

/** The model: turn 0 reads the skill, every 4th turn (from 2) runs a shell command, then answers `answer <id> ...`. */
function startModel(): Promise<OpenAICompatibleServer> {
  return startOpenAICompatibleServer({
    loop: true,
    script: [
      (request) => {
        const lastUser = [...request.messages].reverse().find((message) => message.role === "user");
        const id = /turn (\S+)/.exec(text(lastUser))?.[1] ?? "?";
        const last = request.messages.at(-1);
        if (last?.role === "user") {
          const index = Number(id.split("-").at(-1));
          if (index === 0) return { toolCalls: [{ name: "read_skill", arguments: { name: "fleet-skill" } }] };
          if (index % 4 === 2) return { toolCalls: [{ name: "shell", arguments: { command: `echo fleet ${id}` } }] };
          return `answer ${id}`;
        }
        const seen = /FLEET-(V\d)/.exec(text(last))?.[1] ?? "";
        return `answer ${id} after ${last?.name ?? "tool"} ${seen}`.trim();
      },
    ],
  });
}

/**
 * How long a client waits before re-sending a turn refused `turns-busy`: the worker's retry-after hint (at most 5 s),
 * jittered by ±50 % so refused clients do not come back together; 100 to 200 ms without a hint.
 */
function busyBackoff(retryAfterMs: unknown): number {
  if (typeof retryAfterMs !== "number") return 100 + Math.random() * 100;
  return Math.min(retryAfterMs, 5000) * (0.5 + Math.random());
}

/** Runs the scenario and returns what it measured; the caller checks the database afterwards. */
export async function runFleetScenario(options: FleetOptions): Promise<FleetReport> {
  const base = new URL(options.postgresUrl);
  const checkpointUrl = `${options.postgresUrl}?schema=fleet_checkpoints`;
  const storeUrl = `${options.postgresUrl}?schema=fleet_skills`;
  const skillsDir = mkdtempSync(join(tmpdir(), "sg-fleet-skills-"));
  writeSkill(skillsDir, "v1");
  base.searchParams.delete("schema");
  // guarded like every pool that outlives a server restart: the restart below cuts its idle connections, which an
  // unguarded pg.Pool reports as an unhandled 'error' event (the process dies when the run reaches it within the
  // pool's idle timeout, i.e. on a fast machine)
  const publisher = guardPostgresPool(PostgresStore.fromConnString(base.toString(), { schema: "fleet_skills" }));
  await publisher.setup();
  await publishSkillsToStore(publisher, skillsDir);
  const model = await startModel();

  const workers: LineChild[] = [];
  const start = (index: number) => {
    const { concurrency, maxQueued, resumedHeadroom, resumedAlone, admission, pauseForResumed } =
      options.scheduler ?? {};
    const flags =
      `${resumedAlone ? "alone" : "-"}/${options.fastTakeover ? "fast" : "-"}/${admission ?? "queue"}` +
      `/${pauseForResumed ? "pause" : "-"}`;
    const scheduling = options.scheduler ? [`${concurrency}/${maxQueued}/${resumedHeadroom}/${flags}`] : [];
    workers[index] = startLineChild(WORKER, [checkpointUrl, storeUrl, model.url, options.executor, ...scheduling]);
    return workers[index]!.waitFor((line) => line.ready === true, 180_000);
  };
  await Promise.all(Array.from({ length: options.workers }, (_, index) => start(index)));

  const threads = Array.from({ length: options.threads }, (_, index) => `t${index}`);
  const total = options.threads * options.turns;
  const answered: TurnRecord[] = [];
  const unanswered: FleetReport["unanswered"] = [];
  const errorsSeen: Record<string, number> = {};
  let retried = 0;
  let busyRefusals = 0;
  const faults: { killAt?: number; restartAt?: number; republishAt?: number } = {};
  const recovery: FleetReport["recovery"] = {
    killMs: undefined,
    restartReadyMs: undefined,
    postgresRestartMs: undefined,
    republishMs: undefined,
  };
  const killed = 1 % options.workers;
  let restarting: Promise<unknown> | undefined;
  const begin = Date.now();

  const onAnswered = (record: TurnRecord, sentAt: number) => {
    answered.push(record);
    const home = Number(record.thread.slice(1)) % options.workers;
    if (faults.killAt && recovery.killMs === undefined && home === killed && sentAt >= faults.killAt)
      recovery.killMs = record.answeredAt - faults.killAt;
    if (faults.restartAt && recovery.postgresRestartMs === undefined && sentAt >= faults.restartAt)
      recovery.postgresRestartMs = record.answeredAt - faults.restartAt;
    void inject(answered.length);
  };

  // Faults by progress: kill at 25 %, PostgreSQL restart at 50 %, republish at 70 %.
  const inject = async (done: number) => {
    if (!faults.killAt && done >= total * 0.25) {
      faults.killAt = Date.now();
      workers[killed]!.signal("SIGKILL");
      await workers[killed]!.exited;
      restarting = start(killed);
      await restarting;
      recovery.restartReadyMs = Date.now() - faults.killAt;
      restarting = undefined;
    } else if (!faults.restartAt && done >= total * 0.5) {
      faults.restartAt = Date.now();
      options.restartPostgres();
    } else if (!faults.republishAt && done >= total * 0.7) {
      faults.republishAt = Date.now();
      writeSkill(skillsDir, "v2");
      await publishSkillsToStore(publisher, skillsDir);
    }
  };

  // A thread's process; once one was killed its threads fail over to the others (spread over them), which take their
  // leases over. With one process there is no other: its threads wait for the restarted process.
  const routeOf = (thread: string) => {
    const number = Number(thread.slice(1));
    const home = number % options.workers;
    if (home !== killed || !faults.killAt || options.workers === 1) return home;
    return (home + 1 + (Math.floor(number / options.workers) % (options.workers - 1))) % options.workers;
  };

  /** Sleeps `ms`; with `wakeOnExit`, wakes early when `child` dies (true then: the turn goes to the next process). */
  const backOff = async (ms: number, child: LineChild): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    const slept = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const died = options.wakeOnExit ? child.exited.then(() => true as const) : new Promise<never>(() => undefined);
    try {
      return await Promise.race([slept, died]);
    } finally {
      clearTimeout(timer);
    }
  };

  const runTurn = async (thread: string, index: number) => {
    const id = `${thread}-${index}`;
    let lastError = "";
    let resumed = false;
    const deadline = Date.now() + 300_000;
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      const worker = routeOf(thread);
      if (restarting && worker === killed) await restarting.catch(() => undefined);
      const child = workers[worker]!;
      const from = child.lines.length;
      const sentAt = Date.now();
      child.send(`turn ${thread} ${id}${resumed ? " resumed" : ""}`);
      try {
        const line = await child.waitFor((entry) => entry.id === id, 120_000, from);
        if (line.ok === true) {
          const answeredAt = Number(line.at);
          const timing = line.timing as TurnTiming | undefined;
          const tookOver = line.tookOver === true;
          const record = {
            thread,
            id,
            worker,
            ms: answeredAt - sentAt,
            attempts: attempt,
            answeredAt,
            timing,
            tookOver,
          };
          onAnswered(record, sentAt);
          return;
        }
        if (line.code === "turns-busy" && Date.now() < deadline) {
          busyRefusals += 1; // admission control: back off and send again, not counted as a failed attempt
          attempt -= 1;
          if (await backOff(busyBackoff(line.retryAfterMs), child)) resumed = true; // its process died meanwhile
          continue;
        }
        lastError = `${String(line.code ?? "")} ${String(line.message ?? line.reply ?? "")}`;
      } catch (error) {
        lastError = `process gone: ${(error as Error).message.slice(0, 200)}`;
        resumed = true;
      }
      if (attempt === 1) retried += 1;
      const key = lastError.split(/[:\s]/).find(Boolean) ?? "?";
      errorsSeen[key] = (errorsSeen[key] ?? 0) + 1;
      // a process that died is not asked again: the next one is, at once on the fast path
      if (!(options.fastTakeover && lastError.startsWith("process gone") && routeOf(thread) !== worker))
        await new Promise((resolve) => setTimeout(resolve, 250));
    }
    unanswered.push({ thread, id, lastError });
  };

  await Promise.all(
    threads.map(async (thread) => {
      for (let index = 0; index < options.turns; index += 1) await runTurn(thread, index);
    }),
  );
  const wallMs = Date.now() - begin;

  // The republished skill, as each process's registry sees it (polled), and how long that took.
  const skillSeen: Array<string | null> = [];
  for (const child of workers) {
    let seen: string | null = null;
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      const from = child.lines.length;
      child.send("skill");
      seen = (await child.waitFor((line) => "skill" in line, 30_000, from)).skill as string | null;
      if (seen?.includes("v2")) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    skillSeen.push(seen);
  }
  if (faults.republishAt) recovery.republishMs = Date.now() - faults.republishAt;

  // Every thread resumes: each process gives its threads up, and the next process serves one more turn of each.
  await Promise.all(
    workers.map(async (child) => {
      const from = child.lines.length;
      child.send("release");
      await child.waitFor((line) => "released" in line, 60_000, from);
    }),
  );
  const resumed = await Promise.all(
    threads.map(async (thread) => {
      const child = workers[(Number(thread.slice(1)) + 1) % options.workers]!;
      const id = `${thread}-resume`;
      const deadline = Date.now() + 120_000;
      for (;;) {
        const from = child.lines.length;
        child.send(`turn ${thread} ${id}`);
        const line = await child.waitFor((entry) => entry.id === id, 120_000, from);
        if (line.code !== "turns-busy" || Date.now() > deadline) return line;
        busyRefusals += 1; // admission control: back off and send again
        await new Promise((resolve) => setTimeout(resolve, busyBackoff(line.retryAfterMs)));
      }
    }),
  );
  for (const line of resumed) {
    if (line.ok !== true)
      unanswered.push({ thread: String(line.thread), id: String(line.id), lastError: String(line.message) });
  }
  await Promise.all(
    workers.map(async (child) => {
      child.send("release");
      child.send("exit");
      await child.exited;
    }),
  );
  await model.close();
  await publisher.stop();
  rmSync(skillsDir, { recursive: true, force: true });

  const latencies = answered.map((record) => record.ms).sort((a, b) => a - b);
  const killedThreads = new Set(threads.filter((thread) => Number(thread.slice(1)) % options.workers === killed));
  const afterKill = answered.filter((record) => options.workers === 1 || record.worker !== killed);
  const firsts = takeoverTimes(afterKill, faults.killAt, killedThreads);
  const takeoverTurns = afterKill.filter(
    (record) => firsts.get(record.thread) === record.answeredAt - (faults.killAt ?? 0),
  );
  return {
    answered,
    unanswered,
    threads,
    wallMs,
    turnsPerSecond: answered.length / (wallMs / 1000),
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    recovery,
    takeover: {
      threads: firsts.size,
      ms: spread([...firsts.values()]),
      killToSendMs: spread(takeoverTurns.map((record) => record.answeredAt - record.ms - (faults.killAt ?? 0))),
      turns: breakdown(takeoverTurns),
      all: breakdown(answered),
    },
    busyRefusals,
    skillSeen,
    retried,
    errorsSeen,
    checkpointUrl,
    storeUrl,
  };
}
