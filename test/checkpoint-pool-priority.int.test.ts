// Connections kept for priority work: with `reservedConnections: 2`, other work holds at most 8 of the PostgreSQL
// pool's 10 connections and waits in its own line, while a query inside runWithPriority (a resumed turn) is answered.
import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { closeCheckpointer, createCheckpointer, runWithPriority } from "../packages/checkpoint/src/index.js";
import { saverBackend } from "../packages/checkpoint/src/store/saver-backend.js";

const postgresUrl = inject("postgresUrl");

async function poolOf(reservedConnections: number) {
  const saver = await createCheckpointer(`${postgresUrl}?schema=prio_${randomBytes(4).toString("hex")}`, {
    reservedConnections,
  });
  const backend = saverBackend(saver);
  if (backend.kind !== "postgres") throw new Error("expected PostgreSQL");
  return { saver, pool: backend.pool };
}

describe.skipIf(!postgresUrl)("reservedConnections", () => {
  it("other work waits at 8 of 10 connections; priority work still gets one; a release lets the waiter in", async () => {
    const { saver, pool } = await poolOf(2);
    try {
      const held = await Promise.all(Array.from({ length: 8 }, () => pool.connect()));
      let ninth: { release(): void } | undefined;
      const waiting = pool.connect().then((client) => (ninth = client));
      const viaQuery = pool.query("SELECT 2 AS n"); // pg's query takes a connection through the same line
      // two priority queries at once: both reserved connections
      const answers = await runWithPriority(() =>
        Promise.all([pool.query("SELECT 1 AS n"), pool.query("SELECT 1 AS n")]),
      );
      expect(answers.map((answer) => answer.rows[0].n)).toEqual([1, 1]);
      expect(ninth).toBeUndefined(); // still in line: only priority work may take the last 2
      held[0]!.release();
      await waiting;
      expect(ninth).toBeDefined();
      held[1]!.release();
      expect((await viaQuery).rows[0].n).toBe(2);
      ninth!.release();
      for (const client of held.slice(2)) client.release();
      expect((await pool.query("SELECT 3 AS n")).rows[0].n).toBe(3); // the line is empty again
    } finally {
      await closeCheckpointer(saver);
    }
  }, 60_000);

  it("without it, the ninth connection is taken at once (the control)", async () => {
    const { saver, pool } = await poolOf(0);
    try {
      const held = await Promise.all(Array.from({ length: 9 }, () => pool.connect()));
      expect(held).toHaveLength(9);
      for (const client of held) client.release();
    } finally {
      await closeCheckpointer(saver);
    }
  }, 60_000);
});
