import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { CheckpointerError } from "../errors/checkpointer-error.js";
import { describeDriverError } from "./connection-errors.js";
import { ResilientSqliteSaver } from "./resilient-sqlite-saver.js";
import { explainSqliteError } from "./sqlite-write-errors.js";

/** SQLite's answers to a write it cannot make now: a full disk, or a file it may only read. */
const cannotWrite = (error: unknown) => /^SQLITE_(FULL|READONLY)/.test(String((error as { code?: unknown }).code));

/**
 * Lets pruning give freed pages back (`auto_vacuum = INCREMENTAL`), on a new file only: that is the only time the
 * setting takes effect, and setting it on an existing file starts a write transaction for nothing (SQLITE_FULL on a
 * full disk). Read first, set only when needed; a file that cannot be written now keeps what it has.
 */
function preferIncrementalVacuum(db: Database.Database): void {
  if (db.pragma("auto_vacuum", { simple: true }) === 2) return;
  if (db.pragma("page_count", { simple: true }) !== 0) return; // tables exist: the pragma would change nothing
  try {
    db.pragma("auto_vacuum = INCREMENTAL");
  } catch (error) {
    if (!cannotWrite(error)) throw error;
  }
}

/**
 * Opens an official SqliteSaver on a file (parent directories created, WAL mode, tables set up). An existing file
 * opens without writing anything, so a full disk still lets a new process read every session (its writes then fail
 * with CheckpointerError `disk-full`). Throws CheckpointerError `disk-full` when even that cannot be done (SQLite
 * needs room for its 32 KB shared-memory index, `<file>-shm`, when no other process has the file open), else
 * `setup-failed`.
 * @param path The file (or `:memory:`).
 * @param shown The URL to name in errors, password redacted.
 */
export function openSqliteSaver(path: string, shown: string): { saver: ResilientSqliteSaver; close: () => void } {
  let db: Database.Database | undefined;
  try {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    db.pragma("busy_timeout = 5000");
    preferIncrementalVacuum(db);
    const saver = new ResilientSqliteSaver(db, shown);
    // protected in the typings, public at run time: WAL mode and the tables now (neither writes when already so)
    (saver as unknown as { setup(): void }).setup();
    const opened = db;
    return { saver, close: () => opened.close() };
  } catch (cause) {
    try {
      db?.close();
    } catch {
      // the open or setup error below is the one to report
    }
    const explained = explainSqliteError(cause, shown, "opening it");
    const diskFull = CheckpointerError.isInstance(explained) && explained.reason === "disk-full";
    throw new CheckpointerError({
      url: shown,
      reason: diskFull ? "disk-full" : "setup-failed",
      message: diskFull
        ? `Cannot open SQLite checkpoint database '${path}' (from '${shown}'): the disk is full (${describeDriverError(cause)}); SQLite needs room for its shared-memory index '${path}-shm' (32 KB) when no other process has the file open. Free space and try again.`
        : `Cannot open SQLite checkpoint database '${path}' (from '${shown}'): ${describeDriverError(cause)}`,
      cause,
    });
  }
}
