import type pg from "pg";

const guarded = new WeakSet<object>();
const ignore = () => undefined;

/**
 * Makes a `pg.Pool` survive a server restart, failover or idle-connection cut: without a listener, the `error` event a
 * pooled client emits when the server ends its connection (57P01 "terminating connection due to administrator
 * command") kills the process, whether the client sits idle in the pool or is checked out between two queries. The
 * broken client is dropped by the pool (it is no longer queryable) and the next query opens a new connection; a query
 * that was running gets the error itself. Safe to call twice.
 * @param pool The pool of a `PostgresSaver`, a `PostgresStore` or your own.
 * @returns The same pool.
 * @example guardPostgresPool(new pg.Pool({ connectionString: url }));
 */
export function guardPostgresPool<T extends pg.Pool>(pool: T): T {
  if (guarded.has(pool)) return pool;
  guarded.add(pool);
  pool.on("error", ignore); // an idle client lost its connection: pg-pool has removed it already
  pool.on("connect", (client: pg.PoolClient) => client.on("error", ignore)); // a checked-out client between queries
  return pool;
}
