// A PostgreSQL server that is restarting refuses connections for a moment, then answers 57P03 ("the database system is
// starting up") until it is ready; one that is stopping ends sessions with 57P01. A process starting meanwhile (a
// supervisor restarted it with the database) should wait for the server rather than die: a bounded wait.

const restartingCodes = new Set([
  "57P01", // admin_shutdown: pg_ctl stop/restart -m fast ended our session
  "57P02", // crash_shutdown: another backend crashed, the server is resetting
  "57P03", // cannot_connect_now: starting up, shutting down, or in recovery
  "ECONNREFUSED", // nothing listens yet (between stop and start)
  "ECONNRESET", // the server went away while we connected
]);

// pg's Client answers "... connection error and is not queryable" to a query after its connection died (a restart
// ended it between two statements of the set-up)
const restartingMessages =
  /the database system is (starting up|shutting down|in recovery)|Connection terminated unexpectedly|connection error and is not queryable/i;

/** True when `error` says the PostgreSQL server is restarting, starting or stopping (worth waiting for), not that something is wrong. */
export function isServerRestarting(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === "string" && restartingCodes.has(code)) return true;
  const inner = (error as { errors?: unknown[] }).errors; // pg's AggregateError (IPv4 and IPv6 attempts)
  if (Array.isArray(inner) && inner.length > 0 && inner.every(isServerRestarting)) return true;
  return typeof message === "string" && restartingMessages.test(message);
}

/** First wait between attempts; it doubles after each one up to MAX_BACKOFF_MS. */
export const FIRST_BACKOFF_MS = 200;
/** Longest wait between two attempts. */
export const MAX_BACKOFF_MS = 5_000;

/** How a bounded wait for a restarting server ended without success. */
export interface StartupGaveUp {
  /** Attempts made (at least 1). */
  attempts: number;
  /** Milliseconds from the first attempt to the last failure. */
  elapsedMs: number;
  /** The last attempt's error. */
  cause: unknown;
  /** True when the last error said the server was restarting (the time ran out); false when it was another error. */
  timedOut: boolean;
}

/**
 * Runs `attempt` until it succeeds; while it fails because the server is restarting, tries again after an exponential
 * backoff (FIRST_BACKOFF_MS doubling up to MAX_BACKOFF_MS, jittered, never past the budget) for up to `budgetMs` from
 * the first attempt. Any other error, or the budget spent, ends it with `gaveUp` saying how.
 */
export async function retryWhileRestarting<T>(
  attempt: () => Promise<T>,
  budgetMs: number,
): Promise<{ value: T } | { gaveUp: StartupGaveUp }> {
  const startedAt = Date.now();
  let backoff = FIRST_BACKOFF_MS;
  for (let attempts = 1; ; attempts += 1) {
    try {
      return { value: await attempt() };
    } catch (cause) {
      const elapsedMs = Date.now() - startedAt;
      const restarting = isServerRestarting(cause);
      const left = budgetMs - elapsedMs;
      if (!restarting || left <= 0) return { gaveUp: { attempts, elapsedMs, cause, timedOut: restarting } };
      const jittered = backoff / 2 + Math.random() * (backoff / 2); // processes restarted together do not retry in step
      await new Promise((resolve) => setTimeout(resolve, Math.min(jittered, left)));
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  }
}
