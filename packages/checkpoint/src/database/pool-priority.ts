// Connections of a PostgreSQL pool kept for urgent work (a taken-over thread's turn): other queries may hold at most
// `max - reserved` of them and wait in their own line beyond that, so an urgent query never queues behind bulk turns.
import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";

const urgent = new AsyncLocalStorage<true>();
const reserving = new WeakSet<pg.Pool>();

/**
 * Runs `operation` with every PostgreSQL query it makes (awaited or started in the background) first in line for a
 * pool connection: it may use the connections `reservePoolConnections` keeps, and never waits behind other work.
 * @example await runWithPriority(() => runTurnOnce(agent, input, config));
 */
export function runWithPriority<T>(operation: () => Promise<T>): Promise<T> {
  return urgent.run(true, operation);
}

/** True inside `runWithPriority`. */
export function isPriorityWork(): boolean {
  return urgent.getStore() === true;
}

type Callback = (error: Error | undefined, client?: pg.PoolClient, done?: () => void) => void;

/**
 * Keeps `reserved` of `pool`'s connections (`max`, pg's default 10) for queries made inside `runWithPriority`: other
 * queries hold at most `max - reserved` connections at once and wait in a line of their own for one of them; a
 * priority query goes straight to the pool. Applied once per pool; `reserved` must be below `max`.
 * @param pool The saver's pool.
 * @param reserved Connections only priority work may take.
 */
export function reservePoolConnections(pool: pg.Pool, reserved: number): void {
  if (reserved <= 0 || reserving.has(pool)) return;
  reserving.add(pool);
  const max = (pool as unknown as { options: { max?: number } }).options.max ?? 10;
  const limit = Math.max(1, max - reserved);
  const connect = pool.connect as (this: pg.Pool, ...args: unknown[]) => unknown;
  let held = 0;
  const waiting: Array<() => void> = [];
  // A freed connection goes to the first waiter, counted for it at once (no newcomer slips in between).
  const freed = () => {
    const next = waiting.shift();
    if (next) next();
    else held -= 1;
  };
  /** The client, its release counted once for this checkout. */
  const counted = (client: pg.PoolClient): pg.PoolClient => {
    const release = client.release;
    let done = false;
    client.release = (...args: Parameters<pg.PoolClient["release"]>) => {
      if (!done) {
        done = true;
        freed();
      }
      return release.apply(client, args);
    };
    return client;
  };
  /** Connects for work already counted in `held`. */
  const take = (target: pg.Pool, args: unknown[]) => {
    const callback = args[0] as Callback | undefined;
    if (typeof callback === "function")
      return connect.call(target, ((error, client, done) => {
        if (error || !client) freed();
        callback(error, client ? counted(client) : client, done);
      }) satisfies Callback);
    return (connect.apply(target, args) as Promise<pg.PoolClient>).then(counted, (error: unknown) => {
      freed();
      throw error;
    });
  };
  (pool as unknown as { connect: unknown }).connect = function (this: pg.Pool, ...args: unknown[]) {
    if (isPriorityWork()) return connect.apply(this, args);
    if (held < limit) {
      held += 1;
      return take(this, args);
    }
    if (typeof args[0] === "function") {
      waiting.push(() => void take(this, args));
      return undefined;
    }
    return new Promise<void>((resolve) => waiting.push(resolve)).then(() => take(this, args));
  };
}
