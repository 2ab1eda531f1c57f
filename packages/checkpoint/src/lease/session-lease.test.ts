import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildSessionGraph, userTurn } from "../__fixtures__/session-graph.js";
import { closeCheckpointer, createCheckpointer } from "../create-checkpointer/create-checkpointer.js";
import { SessionBusyError } from "../errors/session-busy-error.js";
import { SessionLeaseLostError } from "../errors/session-lease-lost-error.js";
import { acquireSessionLease } from "./session-lease.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Two connections to one SQLite file, as two processes would have. */
async function twoConnections() {
  const dir = mkdtempSync(join(tmpdir(), "sg-lease-unit-"));
  dirs.push(dir);
  const url = `sqlite:${join(dir, "sessions.db")}`;
  return [await createCheckpointer(url), await createCheckpointer(url)] as const;
}

describe("acquireSessionLease", () => {
  it("lets one holder in at a time and frees the session on release", async () => {
    const [a, b] = await twoConnections();
    const lease = await acquireSessionLease(a, "s1");
    expect(lease.tookOver).toBe(false); // a new session
    const error = await acquireSessionLease(b, "s1").catch((e: unknown) => e);
    expect(SessionBusyError.isInstance(error)).toBe(true);
    expect((error as SessionBusyError).message).toMatch(
      new RegExp(`^session s1 is in use by pid ${process.pid} since \\d{4}-`),
    );
    expect((error as SessionBusyError).holder.owner).toBe(lease.holder.owner);
    const other = await acquireSessionLease(b, "s2"); // other sessions are unaffected
    await lease.release();
    await lease.release();
    const next = await acquireSessionLease(b, "s1");
    expect(next.tookOver).toBe(false); // released, not taken over
    await Promise.all([next.release(), other.release()]);
    await Promise.all([closeCheckpointer(a), closeCheckpointer(b)]);
  });

  it("a holder that stalled past its lease loses it: the next writer takes over and the stalled one's writes are refused", async () => {
    const [a, b] = await twoConnections();
    const lost: SessionLeaseLostError[] = [];
    const lease = await acquireSessionLease(a, "s", {
      ttlMs: 1500,
      renewEveryMs: 100,
      onLost: (error) => lost.push(error),
    });
    const graph = buildSessionGraph({
      checkpointer: lease.protect(a),
      messages: "delta",
      script: [],
      lookup: () => undefined,
    });
    await graph.invoke(userTurn("first", "u1"), { configurable: { thread_id: "s" } });
    const stallUntil = Date.now() + 1700;
    while (Date.now() < stallUntil); // a blocked event loop: no renewal can run
    const taker = await acquireSessionLease(b, "s", { ttlMs: 5000 });
    expect(taker.tookOver).toBe(true); // from a holder that had not released it
    await expect(graph.invoke(userTurn("second", "u2"), { configurable: { thread_id: "s" } })).rejects.toThrow(
      SessionLeaseLostError,
    );
    expect(lease.lost).toBe(true);
    expect(lost).toHaveLength(1);
    await lease.release(); // does not delete the new holder's row
    await expect(acquireSessionLease(a, "s")).rejects.toThrow(/is in use by pid/);
    await taker.release();
    await Promise.all([closeCheckpointer(a), closeCheckpointer(b)]);
  });

  it("checks its options", async () => {
    const [a, b] = await twoConnections();
    await expect(acquireSessionLease(a, "s", { ttlMs: 0 })).rejects.toThrow(/ttlMs/);
    await expect(acquireSessionLease(a, "s", { ttlMs: 100, renewEveryMs: 100 })).rejects.toThrow(
      "Invalid option 'renewEveryMs': must be a positive integer no larger than 99 (milliseconds, below ttlMs (100))",
    );
    await expect(acquireSessionLease(a, "s", { ttlMs: 2 ** 31 })).rejects.toThrow(
      "Invalid option 'ttlMs': must be a positive integer no larger than 2147483647 (milliseconds)",
    );
    await expect(acquireSessionLease(a, "s", { ttlMs: 1 })).rejects.toThrow("Invalid option 'renewEveryMs'");
    await expect(acquireSessionLease(a, "s", { onLost: "log" as never })).rejects.toThrow(
      "Invalid option 'onLost': must be a function",
    );
    await expect(acquireSessionLease(a, "")).rejects.toThrow(/threadId/);
    await Promise.all([closeCheckpointer(a), closeCheckpointer(b)]);
  });
});
