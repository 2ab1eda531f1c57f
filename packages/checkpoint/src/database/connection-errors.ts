// What counts as "the connection to PostgreSQL went away" (as opposed to a bad query): worth one retry on a new connection.

const lostCodes = new Set([
  "57P01", // admin_shutdown: the server is restarting or stopping (pg_ctl -m fast), or pg_terminate_backend
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: the server is starting up
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

const lostMessages =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|terminating connection|timeout exceeded when trying to connect|server closed the connection/i;

/** True when `error` says the database connection was lost or refused (server restart, idle cut, network), not that a statement was wrong. */
export function isConnectionLoss(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === "string" && (lostCodes.has(code) || code.startsWith("08"))) return true;
  const inner = (error as { errors?: unknown[] }).errors; // pg's AggregateError (IPv4 and IPv6 attempts)
  if (Array.isArray(inner) && inner.some(isConnectionLoss)) return true;
  return typeof message === "string" && lostMessages.test(message);
}

/** A short description of a driver error: `CODE: message`. */
export function describeDriverError(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const inner = (error as { errors?: Array<{ message?: string }> } | undefined)?.errors
    ?.map((e) => e.message)
    .filter(Boolean)
    .join("; ");
  return [code, message || inner || String(error)].filter(Boolean).join(": ");
}
