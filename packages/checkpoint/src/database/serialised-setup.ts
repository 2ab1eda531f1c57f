import type pg from "pg";

// Processes starting together on a fresh database race in the official saver's migrations (two insert the same
// version: 23505 on checkpoint_migrations_pkey) and in concurrent CREATE TABLE / CREATE SCHEMA IF NOT EXISTS (the
// catalog's unique indexes). These are the duplicate-key races known to be harmless: the object exists afterwards.
const raceConstraints = new Set([
  "checkpoint_migrations_pkey",
  "pg_type_typname_nsp_index",
  "pg_namespace_nspname_index",
  "pg_class_relname_nsp_index",
]);

/** Name of the per-database advisory lock every skillgraph set-up (saver migrations, lease table) runs under. */
export const SETUP_LOCK_NAME = "skillgraph:checkpoint-setup";

/** Longest wait for another process's set-up to finish before giving up (lock_timeout, 55P03). */
const LOCK_TIMEOUT_MS = 60_000;

/** Attempts of a set-up that met a known duplicate-key race (from a neighbour that does not take the lock). */
const RACE_ATTEMPTS = 4;

/** True when `error` is one of the known harmless set-up races: a 23505 on a migration version or a catalog name. */
export function isSetupRace(error: unknown): boolean {
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  return code === "23505" && typeof constraint === "string" && raceConstraints.has(constraint);
}

/** Runs `setup` again (at once) while it fails with a known duplicate-key race, up to RACE_ATTEMPTS times in all. */
export async function retrySetupRace<T>(setup: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await setup();
    } catch (error) {
      if (!isSetupRace(error) || attempt >= RACE_ATTEMPTS) throw error;
    }
  }
}

/**
 * Runs a schema set-up (CREATE ... IF NOT EXISTS, migrations) so that processes starting together on one database
 * take turns: a transaction on a connection of its own holds the database's advisory lock SETUP_LOCK_NAME
 * (`pg_advisory_xact_lock`, waiting up to 60 s) while `setup` runs on the pool's other connections; COMMIT, or the
 * connection ending, releases it. A known duplicate-key race (a neighbour that sets up without the lock) is retried.
 * @param pool The saver's pool; `setup` uses its other connections (so it needs at least two: pg's default is 10).
 * @param setup The set-up to serialise.
 */
export async function serialisedSetup<T>(pool: pg.Pool, setup: () => Promise<T>): Promise<T> {
  const holder = await pool.connect();
  let broken: unknown;
  try {
    await holder.query("BEGIN");
    await holder.query(`SET LOCAL lock_timeout = ${LOCK_TIMEOUT_MS}`);
    await holder.query("SELECT pg_advisory_xact_lock(hashtext($1))", [SETUP_LOCK_NAME]);
    const result = await retrySetupRace(setup);
    await holder.query("COMMIT");
    return result;
  } catch (error) {
    broken = await holder.query("ROLLBACK").then(
      () => undefined,
      (rollback: unknown) => rollback,
    );
    throw error;
  } finally {
    holder.release(broken !== undefined); // a client that failed to roll back is dropped, not reused
  }
}
