import type pg from "pg";
import { InvalidOptionsError } from "../internal/core.js";

const guarded = new WeakSet<object>();
const ignore = () => undefined;

function isPool(value: unknown): value is pg.Pool {
  const pool = value as Partial<pg.Pool> | undefined;
  return typeof pool?.connect === "function" && typeof pool?.on === "function" && typeof pool?.query === "function";
}

/** The pool of a `PostgresStore` (`@langchain/langgraph-checkpoint-postgres/store`), which keeps it in `core.pool`. */
function storePool(target: object): pg.Pool | undefined {
  const pool = (target as { core?: { pool?: unknown } }).core?.pool;
  return isPool(pool) ? pool : undefined;
}

/**
 * Makes a `pg.Pool`, or the pool inside a `PostgresStore`, survive a server restart, failover or idle-connection cut:
 * without a listener, the `error` event a pooled client emits when the server ends its connection (57P01
 * "terminating connection due to administrator command") kills the process, whether the client sits idle in the pool
 * or is checked out between two queries. The broken client is dropped by the pool (it is no longer queryable) and the
 * next query opens a new connection; a query that was running gets the error itself. Safe to call twice.
 * `createCheckpointer` does this for its own pool.
 * @param target A `pg.Pool` or a `PostgresStore`.
 * @returns The same object.
 * @throws InvalidOptionsError when `target` is neither (for instance a `PostgresStore` of a version that keeps its pool elsewhere).
 * @example const store = guardPostgresPool(PostgresStore.fromConnString(url));
 */
export function guardPostgresPool<T extends object>(target: T): T {
  const pool = isPool(target) ? target : storePool(target);
  if (!pool) {
    throw new InvalidOptionsError({
      option: "guardPostgresPool(target)",
      value: target.constructor?.name ?? typeof target,
      message: "must be a pg.Pool or a PostgresStore (one that keeps its pool in `core.pool`)",
    });
  }
  if (guarded.has(pool)) return target;
  guarded.add(pool);
  pool.on("error", ignore); // an idle client lost its connection: pg-pool has removed it already
  pool.on("connect", (client: pg.PoolClient) => client.on("error", ignore)); // a checked-out client between queries
  return target;
}
