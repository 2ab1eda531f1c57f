// Faults around the happy path, on real child processes, a real SQLite file and a PostgreSQL server of its own (it
// is restarted, so not the run's shared one): a database restart under an idle and a busy process, kill -9 then an
// immediate resume, a SIGSTOPped holder whose late write the database refuses.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { buildSessionGraph, userTurn } from "../packages/checkpoint/src/__fixtures__/session-graph.js";
import {
  acquireSessionLease,
  closeCheckpointer,
  createCheckpointer,
  inspectSession,
  SessionBusyError,
  SessionLeaseLostError,
  withPruning,
} from "../packages/checkpoint/src/index.js";
import { saverBackend } from "../packages/checkpoint/src/store/saver-backend.js";
import { startTestPostgres, type TestPostgresServer } from "./setup/postgres-server.js";
import { type LineChild, startLineChild } from "./support/line-child.js";

const CHILD = "test/support/fault-child.ts";
const work = mkdtempSync(join(tmpdir(), "sg-faults-"));
const pgUnavailable = inject("postgresUrl") ? undefined : `no PostgreSQL server: ${inject("postgresUnavailable")}`;
let server: TestPostgresServer | undefined;
const children: LineChild[] = [];

beforeAll(async () => {
  if (!pgUnavailable) server = await startTestPostgres();
}, 120_000);
afterAll(() => {
  for (const running of children) if (running.alive()) running.signal("SIGKILL");
  server?.stop();
  rmSync(work, { recursive: true, force: true });
});

function child(url: string, threadId: string, ttlMs?: number): LineChild {
  const started = startLineChild(CHILD, [url, threadId, ...(ttlMs ? [String(ttlMs)] : [])]);
  children.push(started);
  return started;
}

const turnResult = (id: string) => (line: Record<string, unknown>) => line.id === id;

async function humanTurns(url: string, threadId: string): Promise<string[]> {
  const saver = await createCheckpointer(url);
  try {
    const session = await inspectSession(saver, threadId);
    return session.messages.filter((message) => message.type === "human").map((message) => message.content);
  } finally {
    await closeCheckpointer(saver);
  }
}

const pgUrl = () => `${server!.url}?schema=f_${randomBytes(4).toString("hex")}`;

/** Rewrites the lease table directly (as another host's process would have written it), through the saver's connection. */
async function rawLeaseUpdate(saver: Awaited<ReturnType<typeof createCheckpointer>>, sql: string): Promise<void> {
  const backend = saverBackend(saver);
  if (backend.kind === "sqlite") backend.db.exec(sql.replace(/\$schema\./g, ""));
  else if (backend.kind === "postgres") await backend.pool.query(sql.replace(/\$schema\./g, `"${backend.schema}".`));
}

/**
 * SIGSTOPs a holder at a moment it is not inside a SQLite write transaction (a lease renewal, say): a process frozen
 * inside one keeps the file's write lock, and every other process waits for it whatever the lease says.
 */
async function stopOutsideAWrite(holder: LineChild, saver: Awaited<ReturnType<typeof createCheckpointer>>) {
  const backend = saverBackend(saver);
  for (let attempt = 0; ; attempt += 1) {
    holder.signal("SIGSTOP");
    if (backend.kind !== "sqlite") return;
    backend.db.pragma("busy_timeout = 200");
    try {
      backend.db.exec("BEGIN IMMEDIATE; ROLLBACK");
      return;
    } catch (error) {
      if (attempt > 50) throw error;
      holder.signal("SIGCONT");
      await new Promise((resolve) => setTimeout(resolve, 30));
    } finally {
      backend.db.pragma("busy_timeout = 5000");
    }
  }
}

describe.skipIf(pgUnavailable !== undefined)("a PostgreSQL restart (pg_ctl restart -m fast)", () => {
  it("under an idle process: no crash, the next turn is answered and stored once", async () => {
    const url = pgUrl();
    const holder = child(url, "idle");
    await holder.waitFor((line) => line.ready === true);
    holder.send("turn idle-1");
    expect(await holder.waitFor(turnResult("idle-1"))).toMatchObject({ ok: true });
    const restartedAt = Date.now();
    server!.restart(); // every pooled connection gets 57P01 while the process waits for input
    await new Promise((resolve) => setTimeout(resolve, 500)); // let the terminations reach the idle clients
    expect(holder.alive(), holder.stderr()).toBe(true);
    holder.send("turn idle-2");
    expect(await holder.waitFor(turnResult("idle-2"))).toMatchObject({ ok: true });
    console.log(`idle process: next turn answered ${Date.now() - restartedAt} ms after the restart began`);
    holder.send("exit");
    expect((await holder.exited).code, holder.stderr()).toBe(0);
    expect(await humanTurns(url, "idle")).toEqual(["idle-1", "idle-2"]);
  });

  it("under a busy process: no crash, failed turns get a typed error, answered turns are stored exactly once", async () => {
    const url = pgUrl();
    const holder = child(url, "busy");
    await holder.waitFor((line) => line.ready === true);
    holder.send("busy 30 b");
    await holder.waitFor(turnResult("b-2"));
    const restartedAt = Date.now();
    server!.restart();
    const restartedIn = Date.now() - restartedAt;
    const done = await holder.waitFor((line) => line.busyDone === "b");
    expect(done).toBeTruthy();
    expect(holder.alive(), holder.stderr()).toBe(true);
    holder.send("turn after");
    expect(await holder.waitFor(turnResult("after"))).toMatchObject({ ok: true });
    const results = holder.lines.filter((line) => typeof line.id === "string");
    const failed = results.filter((line) => line.ok === false);
    // A turn whose write met the restart either succeeded on the retry or failed with a typed, explained error.
    for (const line of failed)
      expect(String(line.code), String(line.message)).toMatch(/^checkpointer-connection-lost$/);
    const recovered = results.find((line) => line.ok === true && Number(line.startedAt) > restartedAt + restartedIn);
    console.log(
      `busy process: ${results.length - failed.length}/${results.length} turns answered, ${failed.length} failed with ` +
        `checkpointer-connection-lost; pg_ctl restart took ${restartedIn} ms; the first turn started after it was ` +
        `answered ${Number(recovered?.at) - restartedAt} ms after the restart began`,
    );
    holder.send("exit");
    expect((await holder.exited).code, holder.stderr()).toBe(0);
    const stored = await humanTurns(url, "busy");
    for (const line of results.filter((entry) => entry.ok === true)) {
      expect(stored.filter((text) => text === line.id)).toHaveLength(1);
    }
    expect(new Set(stored).size).toBe(stored.length);
  });
});

const backends = [
  {
    name: "SQLite",
    unavailable: undefined as string | undefined,
    url: () => `sqlite:${join(work, `s-${randomBytes(3).toString("hex")}.db`)}`,
  },
  { name: "PostgreSQL", unavailable: pgUnavailable, url: pgUrl },
];

for (const backend of backends) {
  describe.skipIf(backend.unavailable !== undefined)(`leases that follow the holder (${backend.name})`, () => {
    it("kill -9 of the holder: the session resumes at once (PostgreSQL: from any host), with a larger fencing token", async () => {
      const url = backend.url();
      const holder = child(url, "k9");
      const ready = await holder.waitFor((line) => line.ready === true);
      holder.send("turn k9-1");
      expect(await holder.waitFor(turnResult("k9-1"))).toMatchObject({ ok: true });
      holder.signal("SIGKILL");
      await holder.exited;
      // Its row, as another host's holder would have written it: this host cannot look at its process.
      const elsewhere = await createCheckpointer(url);
      await rawLeaseUpdate(elsewhere, `UPDATE $schema.skillgraph_session_leases SET host = 'another-host'`);
      if (backend.name === "SQLite") {
        // Nothing else tells a dead holder on another host: it waits for its expiry (30 s).
        const busy = await acquireSessionLease(elsewhere, "k9").catch((error: unknown) => error);
        expect(SessionBusyError.isInstance(busy), String(busy)).toBe(true);
        await rawLeaseUpdate(
          elsewhere,
          `UPDATE $schema.skillgraph_session_leases SET host = '${(await import("node:os")).hostname()}'`,
        );
      } // PostgreSQL: the row names the holder's advisory lock, which went with its connection: taken over at once.
      const resumedAt = Date.now();
      const saver = withPruning(elsewhere, { keepLast: 20 });
      const lease = await acquireSessionLease(saver, "k9"); // no wait for the 30 s lease
      expect(lease.tookOverFromDeadPid).toBe(holder.pid);
      expect(lease.holder.token).toBe(Number(ready.token) + 1);
      const graph = buildSessionGraph({
        checkpointer: lease.protect(saver),
        messages: "delta",
        script: [],
        lookup: () => undefined,
      });
      await graph.invoke(userTurn("k9-2", "k9-2"), { configurable: { thread_id: "k9" } });
      console.log(`${backend.name}: resumed ${Date.now() - resumedAt} ms after kill -9 (lease ttl 30 s)`);
      await lease.release();
      await closeCheckpointer(elsewhere);
      expect(await humanTurns(url, "k9")).toEqual(["k9-1", "k9-2"]);
    });

    it("a SIGSTOPped holder: after its lease expired and was taken over, its late write is refused", async () => {
      const url = backend.url();
      const holder = child(url, "stopped", 1500);
      await holder.waitFor((line) => line.ready === true);
      holder.send("turn before-stop");
      expect(await holder.waitFor(turnResult("before-stop"))).toMatchObject({ ok: true });
      const saver = await createCheckpointer(url);
      await stopOutsideAWrite(holder, saver);
      await new Promise((resolve) => setTimeout(resolve, 1800)); // past its 1.5 s lease
      const lease = await acquireSessionLease(saver, "stopped", { ttlMs: 60_000 }); // expired: taken over
      expect(lease.tookOverFromDeadPid).toBeUndefined(); // the stopped process is alive
      const graph = buildSessionGraph({
        checkpointer: lease.protect(saver),
        messages: "delta",
        script: [],
        lookup: () => undefined,
      });
      await graph.invoke(userTurn("new-holder", "new-holder"), { configurable: { thread_id: "stopped" } });
      holder.send("turn late"); // queued in the pipe: runs as soon as the holder wakes
      holder.signal("SIGCONT");
      const late = await holder.waitFor(turnResult("late"));
      expect(late).toMatchObject({ ok: false, code: "session-lease-lost" });
      console.log(`${backend.name}: stale holder's write refused: ${String(late.message)}`);
      expect(await humanTurns(url, "stopped")).toEqual(["before-stop", "new-holder"]);
      holder.signal("SIGKILL");
      await lease.release();
      await closeCheckpointer(saver);
    });

    it("the database itself refuses a write made under a token that was taken over (no renewal, no local clock)", async () => {
      const url = backend.url();
      const [stale, taker] = [await createCheckpointer(url), await createCheckpointer(url)];
      vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] }); // the stale holder never renews nor learns
      let staleLease;
      try {
        staleLease = await acquireSessionLease(stale, "fenced", { ttlMs: 300 });
      } finally {
        vi.useRealTimers();
      }
      const graph = buildSessionGraph({
        checkpointer: staleLease.protect(stale),
        messages: "delta",
        script: [],
        lookup: () => undefined,
      });
      await graph.invoke(userTurn("first", "first"), { configurable: { thread_id: "fenced" } });
      await new Promise((resolve) => setTimeout(resolve, 400));
      const lease = await acquireSessionLease(taker, "fenced");
      expect(lease.holder.token).toBe(staleLease.holder.token + 1);
      const refused = await graph
        .invoke(userTurn("stale", "stale"), { configurable: { thread_id: "fenced" } })
        .catch((error: unknown) => error);
      expect(SessionLeaseLostError.isInstance(refused), String(refused)).toBe(true);
      expect((refused as Error).message).toMatch(/database refused the write/);
      expect(staleLease.lost).toBe(true);
      expect(await humanTurns(url, "fenced")).toEqual(["first"]);
      await lease.release();
      await Promise.all([closeCheckpointer(stale), closeCheckpointer(taker)]);
    });
  });
}
