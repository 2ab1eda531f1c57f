import type pg from "pg";
import { SessionLeaseLostError } from "../errors/session-lease-lost-error.js";
import { currentFence, type WriteFence } from "./write-fence.js";

const installed = new WeakSet<pg.Pool>();

/**
 * Fences the checkpoint writes of a `PostgresSaver` on this pool in their own transaction: a client the saver takes
 * from the pool during a fenced call (`runFenced`) runs, right after the saver's `BEGIN`, a
 * `SELECT ... FOR SHARE` of the session's lease row and aborts the transaction unless the row still has our owner and
 * fencing token. The row lock holds off a takeover until the write commits; a takeover that came first makes the
 * write fail with SessionLeaseLostError. Reads (`pool.query`) are untouched.
 * @param pool The saver's pool.
 * @param table The schema-qualified lease table.
 */
export function installPostgresFence(pool: pg.Pool, table: string): void {
  if (installed.has(pool)) return;
  installed.add(pool);
  const connect = pool.connect as (this: pg.Pool, ...args: unknown[]) => unknown;
  const fencedConnect = function (this: pg.Pool, ...args: unknown[]) {
    const fence = currentFence();
    if (fence === undefined || args.length > 0) return connect.apply(this, args);
    return (connect.call(this) as Promise<pg.PoolClient>).then((client) => fencedClient(client, fence, table));
  };
  (pool as unknown as { connect: unknown }).connect = fencedConnect;
}

function fencedClient(client: pg.PoolClient, fence: WriteFence, table: string): pg.PoolClient {
  const query = async (text: unknown, ...rest: unknown[]) => {
    const run = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    if (typeof text !== "string" || !/^\s*BEGIN\b/i.test(text)) return run(text, ...rest);
    const begun = await run(text, ...rest);
    const held = (await run(`SELECT owner, token FROM ${table} WHERE thread_id = $1 FOR SHARE`, [
      fence.threadId,
    ])) as pg.QueryResult<{ owner: string; token: string | number }>;
    const row = held.rows[0];
    if (!row || row.owner !== fence.owner || Number(row.token) !== fence.token) {
      throw new SessionLeaseLostError({
        threadId: fence.threadId,
        reason: row
          ? `the database refused the write: the lease was taken over (fencing token ${row.token}, ours ${fence.token})`
          : "the database refused the write: the lease row is gone",
      });
    }
    return begun;
  };
  return new Proxy(client, {
    get(target, property) {
      if (property === "query") return query;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
