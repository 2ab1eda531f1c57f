import { CheckpointerError } from "../errors/checkpointer-error.js";

/**
 * Turns SQLite's "database is locked" (SQLITE_BUSY, after the busy timeout) and "database or disk is full"
 * (SQLITE_FULL, or ENOSPC / SQLITE_IOERR / SQLITE_IOERR_SHMSIZE on a full file system) into a CheckpointerError that says what happened; the
 * failed statement or transaction was rolled back by SQLite, so the session stays as it was before the write.
 * Other errors are returned unchanged.
 */
export function explainSqliteError(error: unknown, url: string, what: string): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string") return error;
  const detail = `${code}: ${(error as Error).message}`;
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return new CheckpointerError({
      url,
      reason: "database-busy",
      message: `SQLite checkpoint database '${url}' stayed locked by another connection during ${what} (${detail}); nothing was written, the session is as before. Try again.`,
      cause: error,
    });
  }
  // SQLITE_IOERR_SHMSIZE: the shared-memory index (<file>-shm) could not grow, which on a full disk is the first thing to fail.
  if (
    code.startsWith("SQLITE_FULL") ||
    code === "SQLITE_IOERR_WRITE" ||
    code === "SQLITE_IOERR" ||
    code === "SQLITE_IOERR_SHMSIZE"
  ) {
    return new CheckpointerError({
      url,
      reason: "disk-full",
      message: `SQLite checkpoint database '${url}': the disk is full (or the write failed) during ${what} (${detail}); nothing was written, the session is as before. Free space and try again.`,
      cause: error,
    });
  }
  return error;
}
