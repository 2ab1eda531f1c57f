import { randomInt } from "node:crypto";
import pg from "pg";

/** First key of the two-key advisory locks that tie lease rows to their holder's connection ("SGLH"). */
export const HOLDER_LOCK_SPACE = 0x53474c48;

/** Longest a lease acquisition waits for the lock (a reconnection may wait for our old session to go). */
const KEY_WAIT_MS = 2_000;
const FIRST_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 5_000;

/** A process's tie to its lease rows in PostgreSQL: an advisory lock that lives exactly as long as its connection. */
export interface HolderLock {
  /**
   * The lock's key (recorded in the rows we hold) once held; null when it is not held within 2 s (the database cannot
   * be reached, or a reconnection still waits): a row without the key is only taken over when it expires.
   */
  key(): Promise<number | null>;
  /** Ends the connection (and so the lock); safe to call twice. */
  end(): Promise<void>;
}

/**
 * Holds the session-level advisory lock `(HOLDER_LOCK_SPACE, key)` on a connection of its own (not pooled, so never
 * recycled while we live), for the lease rows this process holds to name. Another process that finds the lock free
 * knows the holder's connection is gone (the process died, or its host did) and may take its leases over at once.
 * When the connection drops (a database restart), it reconnects with a backoff and takes the same key again (waiting,
 * should the old session still linger on the server). The socket does not keep the process alive.
 * @param config The saver pool's connection options.
 */
export function postgresHolderLock(config: pg.ClientConfig): HolderLock {
  let client: pg.Client | undefined;
  let held: Promise<number | null> | undefined;
  let chosen: number | undefined;
  let ended = false;
  let backoff = FIRST_BACKOFF_MS;
  let timer: NodeJS.Timeout | undefined;

  const dropped = (broken: pg.Client) => {
    if (client !== broken) return;
    client = undefined;
    held = undefined;
    if (ended || chosen === undefined || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      held = take().catch(() => null); // a failure schedules the next attempt
    }, backoff);
    timer.unref();
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  };

  const lock = async (next: pg.Client): Promise<number> => {
    if (chosen !== undefined) {
      await next.query("SELECT pg_advisory_lock($1, $2)", [HOLDER_LOCK_SPACE, chosen]); // ours: wait out our old session
      return chosen;
    }
    for (;;) {
      const candidate = randomInt(1, 2 ** 31 - 1);
      const { rows } = await next.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS ok", [
        HOLDER_LOCK_SPACE,
        candidate,
      ]);
      if (rows[0]?.ok) return candidate; // else another process drew the same key: draw again
    }
  };

  const take = async (): Promise<number | null> => {
    const next = new pg.Client(config);
    client = next;
    next.on("error", () => dropped(next));
    next.on("end", () => dropped(next));
    try {
      await next.connect();
      (next as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
      chosen = await lock(next);
      backoff = FIRST_BACKOFF_MS;
      if (ended) await next.end();
      return chosen;
    } catch (error) {
      await next.end().catch(() => undefined);
      dropped(next); // schedules the next attempt when the key is ours already
      throw error;
    }
  };

  return {
    key() {
      if (ended) return Promise.resolve(null);
      held ??= take().catch(() => null);
      let waited: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => {
        waited = setTimeout(() => resolve(null), KEY_WAIT_MS);
        waited.unref();
      });
      return Promise.race([held, late]).finally(() => clearTimeout(waited));
    },
    async end() {
      ended = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
