// Leases that cannot outlive an outage, on a PostgreSQL server of its own (it is stopped and started): a release that
// fails while the server is down is tried again by the next release() call and in the background, so the session is
// free as soon as the server is back, not when the 60 s lease expires; a holder whose process was killed is taken over
// at once even when this host cannot look at its process (its row names an advisory lock that went with its
// connection), while a live one keeps its session, also after a restart of the server.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  acquireSessionLease,
  CheckpointerError,
  closeCheckpointer,
  createCheckpointer,
  SessionBusyError,
} from "../packages/checkpoint/src/index.js";
import { HOLDER_LOCK_SPACE } from "../packages/checkpoint/src/lease/postgres-holder-lock.js";
import { saverBackend } from "../packages/checkpoint/src/store/saver-backend.js";
import { startTestPostgres, type TestPostgresServer } from "./setup/postgres-server.js";
import { type LineChild, startLineChild } from "./support/line-child.js";

const unavailable = inject("postgresUrl") ? undefined : `no PostgreSQL server: ${inject("postgresUnavailable")}`;
let server: TestPostgresServer | undefined;
const children: LineChild[] = [];

beforeAll(async () => {
  if (!unavailable) server = await startTestPostgres(); // its own server: these tests stop it
}, 120_000);
afterAll(() => {
  for (const child of children) if (child.alive()) child.signal("SIGKILL");
  server?.stop();
});

type Saver = Awaited<ReturnType<typeof createCheckpointer>>;
const schemaUrl = () => `${server!.url}?schema=o_${randomBytes(4).toString("hex")}`;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sql<Row>(saver: Saver, text: string, args: unknown[] = []): Promise<Row[]> {
  const backend = saverBackend(saver);
  if (backend.kind !== "postgres") throw new Error("expected PostgreSQL");
  const result = await backend.pool.query(text.replace(/\$schema\./g, `"${backend.schema}".`), args);
  return result.rows as Row[];
}

/** The lease row's expiry (0 once released) and holder lock key. */
async function leaseRow(saver: Saver, threadId: string) {
  const rows = await sql<{ expires_at: string; holder_lock: string | null }>(
    saver,
    "SELECT expires_at, holder_lock FROM $schema.skillgraph_session_leases WHERE thread_id = $1",
    [threadId],
  );
  return { expiresAt: Number(rows[0]?.expires_at), holderLock: rows[0]?.holder_lock ?? null };
}

/**
 * Polls `check` every 200 ms until it is true or `boundMs` has passed; returns the milliseconds it took, or undefined.
 * A check that throws (a pooled connection the restart ended) counts as false.
 */
async function within(boundMs: number, check: () => Promise<boolean>): Promise<number | undefined> {
  const started = Date.now();
  while (Date.now() - started < boundMs) {
    if (await check().catch(() => false)) return Date.now() - started;
    await delay(200);
  }
  return undefined;
}

describe.skipIf(unavailable !== undefined)("a lease release during a PostgreSQL outage", () => {
  it("fails while the server is down, the second call really tries again, and the background retry frees the session once it is back", async () => {
    const url = schemaUrl();
    const holder = await createCheckpointer(url);
    const lease = await acquireSessionLease(holder, "outage", { ttlMs: 60_000 });
    server!.halt();
    let resumedAt = 0;
    try {
      for (const attempt of ["first", "second"]) {
        const error = await lease.release().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(CheckpointerError.isInstance(error), `${attempt} release: ${String(error)}`).toBe(true);
        expect((error as CheckpointerError).reason).toBe("connection-lost");
      }
    } finally {
      await server!.resume();
      resumedAt = Date.now();
    }
    const observer = await createCheckpointer(url);
    // No more release() calls: the background retry must end the row, long before the 60 s lease runs out.
    const freedIn = await within(20_000, async () => (await leaseRow(observer, "outage")).expiresAt === 0);
    expect(freedIn, "the lease row was still live 20 s after the server came back").toBeDefined();
    console.log(
      `release retried in the background: the row was released ${Date.now() - resumedAt} ms after pg_ctl start returned`,
    );
    const next = await acquireSessionLease(observer, "outage");
    expect(next.tookOverFromDeadPid).toBeUndefined(); // released, not taken over
    expect(next.holder.token).toBe(lease.holder.token + 1);
    await lease.release(); // released already: resolves at once
    await next.release();
    await Promise.all([closeCheckpointer(holder), closeCheckpointer(observer)]);
  });

  it("a release() called again once the server is back ends the row before it returns", async () => {
    const url = schemaUrl();
    const holder = await createCheckpointer(url);
    const lease = await acquireSessionLease(holder, "again", { ttlMs: 60_000 });
    server!.halt();
    try {
      await expect(lease.release()).rejects.toMatchObject({ reason: "connection-lost" });
    } finally {
      await server!.resume();
    }
    await lease.release();
    const observer = await createCheckpointer(url);
    expect((await leaseRow(observer, "again")).expiresAt).toBe(0);
    await Promise.all([closeCheckpointer(holder), closeCheckpointer(observer)]);
  });
});

describe.skipIf(unavailable !== undefined)("a lease bound to its holder's connection", () => {
  it("a live holder on another host keeps its session, also after a server restart; killed, it is taken over at once", async () => {
    const url = schemaUrl();
    const child = startLineChild("test/support/fault-child.ts", [url, "bound", "60000"]);
    children.push(child);
    const ready = await child.waitFor((line) => line.ready === true);
    const taker = await createCheckpointer(url);
    // As another host's holder would have written it: this host cannot look at its process, only at its lock.
    await sql(taker, "UPDATE $schema.skillgraph_session_leases SET host = 'another-host'");
    const busy = await acquireSessionLease(taker, "bound").catch((error: unknown) => error);
    expect(SessionBusyError.isInstance(busy), String(busy)).toBe(true);

    const { holderLock } = await leaseRow(taker, "bound");
    expect(holderLock).not.toBeNull();
    server!.restart(); // every connection ends, the holder's lock with it; it takes the lock again on a new one
    const relockedIn = await within(15_000, async () => {
      const rows = await sql<{ n: number }>(
        taker,
        "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND objsubid = 2 AND granted",
        [HOLDER_LOCK_SPACE, Number(holderLock)],
      );
      return rows[0]!.n === 1;
    });
    expect(relockedIn, "the holder did not take its lock again within 15 s").toBeDefined();
    console.log(`holder lock taken again ${relockedIn} ms after pg_ctl restart returned`);
    const stillBusy = await acquireSessionLease(taker, "bound").catch((error: unknown) => error);
    expect(SessionBusyError.isInstance(stillBusy), String(stillBusy)).toBe(true);
    child.send("turn after-restart"); // and it still writes under its lease
    expect(await child.waitFor((line) => line.id === "after-restart")).toMatchObject({ ok: true });

    child.signal("SIGKILL");
    await child.exited;
    const killedAt = Date.now();
    let lease: Awaited<ReturnType<typeof acquireSessionLease>> | undefined;
    // The server notices the closed connection within moments; bounded well below the 60 s lease.
    await within(10_000, async () => {
      lease = await acquireSessionLease(taker, "bound").catch(() => undefined);
      return lease !== undefined;
    });
    expect(lease, "not taken over within 10 s of kill -9 (lease ttl 60 s)").toBeDefined();
    console.log(`holder on 'another-host' killed: taken over ${Date.now() - killedAt} ms later (lease ttl 60 s)`);
    expect(lease!.tookOverFromDeadPid).toBe(child.pid);
    expect(lease!.holder.token).toBe(Number(ready.token) + 1);
    expect(lease!.holder.host).toBe(hostname());
    await lease!.release();
    await closeCheckpointer(taker);
  });
});
