import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import Database from "better-sqlite3";
import pg from "pg";
import { describeDriverError as describe } from "../database/connection-errors.js";
import { guardPostgresPool } from "../database/guard-postgres-pool.js";
import { ResilientPostgresSaver } from "../database/resilient-postgres-saver.js";
import { ResilientSqliteSaver } from "../database/resilient-sqlite-saver.js";
import { CheckpointerError } from "../errors/checkpointer-error.js";
import { integerOption } from "../internal/core.js";
import { parseCheckpointerUrl } from "./parse-checkpointer-url.js";
import { redactUrl } from "./redact-url.js";

/** Options of `createCheckpointer`. */
export interface CreateCheckpointerOptions {
  /** Directory a relative `sqlite:` path is resolved against. @default process.cwd() */
  cwd?: string;
  /** Give up reaching PostgreSQL at setup after this many milliseconds (later waits for a pooled connection: up to 60 s). @default 5000 */
  connectTimeoutMs?: number;
  /** PostgreSQL: wait this long before the one retry of an operation whose connection was lost. @default 1000 */
  retryDelayMs?: number;
}

const closers = new WeakMap<BaseCheckpointSaver, () => Promise<void>>();

const unreachableCodes = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ETIMEDOUT",
  "ECONNRESET",
  "EAI_AGAIN",
  "3D000",
  "28P01",
  "28000",
]);

/** Removes every form of the URL's password from a driver message (defence in depth: pg does not normally echo it). */
function scrubber(url: string): (text: string) => string {
  let secrets: string[] = [];
  try {
    const { password } = new URL(url);
    if (password !== "") secrets = [password, decodeURIComponent(password)];
  } catch {
    // parseCheckpointerUrl already refused it
  }
  return (text) => secrets.reduce((out, secret) => out.split(secret).join("***"), text);
}

/**
 * Opens the checkpoint saver a URL names, ready to use (tables created).
 * - `sqlite:PATH`: the embedded default, an official `SqliteSaver` on a file (parent directories created, WAL mode).
 * - `postgres://USER:PASSWORD@HOST:PORT/DB[?schema=NAME]`: the official `PostgresSaver`, `setup()` run for you.
 * - `memory:`: an in-process `MemorySaver` (tests).
 * Throws CheckpointerError naming the URL (password redacted) and what failed. Close it with `closeCheckpointer`.
 * @param url Where checkpoints live.
 * @default url sqlite:.skillgraph/sessions.db is what the CLI passes
 * @example
 * const checkpointer = await createCheckpointer("sqlite:.skillgraph/sessions.db");
 * const graph = builder.compile({ checkpointer });
 */
export async function createCheckpointer(
  url: string,
  options: CreateCheckpointerOptions = {},
): Promise<BaseCheckpointSaver> {
  const target = parseCheckpointerUrl(url, options.cwd ?? process.cwd());
  const shown = redactUrl(url);
  const scrub = scrubber(url);
  const retryDelayMs = integerOption("retryDelayMs", options.retryDelayMs ?? 1000, { min: 0, detail: "milliseconds" });
  if (target.kind === "memory") {
    const saver = new MemorySaver();
    closers.set(saver, async () => undefined);
    return saver;
  }
  if (target.kind === "sqlite") {
    let db: Database.Database;
    try {
      if (target.path !== ":memory:") mkdirSync(dirname(target.path), { recursive: true });
      db = new Database(target.path);
      db.pragma("busy_timeout = 5000");
      db.pragma("auto_vacuum = INCREMENTAL"); // takes effect on a new file only; lets pruning give freed pages back
      const saver = new ResilientSqliteSaver(db, shown);
      (saver as unknown as { setup(): void }).setup(); // protected in the typings, public at run time; creates the tables now
      closers.set(saver, async () => void db.close());
      return saver;
    } catch (cause) {
      throw new CheckpointerError({
        url: shown,
        reason: "setup-failed",
        message: `Cannot open SQLite checkpoint database '${target.path}' (from '${shown}'): ${describe(cause)}`,
        cause,
      });
    }
  }
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
  });
  guardPostgresPool(pool); // a connection the server ends (restart, idle cut) must not crash the process
  const saver = new ResilientPostgresSaver(
    pool,
    { schema: target.schema },
    { url: shown, delayMs: retryDelayMs, scrub },
  );
  try {
    await saver.setup();
  } catch (cause) {
    await pool.end().catch(() => undefined);
    const code =
      (cause as { code?: string }).code ?? (cause as { errors?: Array<{ code?: string }> }).errors?.[0]?.code;
    const unreachable =
      (code !== undefined && unreachableCodes.has(code)) || /timeout|terminated/i.test(describe(cause));
    // The driver error is summarised (password scrubbed) rather than attached: its fields may carry the connection string.
    throw new CheckpointerError({
      url: shown,
      reason: unreachable ? "unreachable" : "setup-failed",
      message: unreachable
        ? `Cannot reach PostgreSQL at '${shown}': ${scrub(describe(cause))}`
        : `Cannot set up checkpoint tables in schema '${target.schema}' at '${shown}': ${scrub(describe(cause))}`,
    });
  }
  // The short timeout is for reaching the server at all (setup above). Later, under load, waiting for one of the pool's
  // 10 connections is not a failure: pg-pool applies the same option to that wait, so lengthen it now.
  (pool as unknown as { options: { connectionTimeoutMillis: number } }).options.connectionTimeoutMillis = Math.max(
    options.connectTimeoutMs ?? 5000,
    60_000,
  );
  closers.set(saver, () => pool.end());
  return saver;
}

/** Closes the database connection of a saver made by `createCheckpointer` (or of the saver a `withPruning` wraps); a no-op otherwise. */
export async function closeCheckpointer(saver: BaseCheckpointSaver): Promise<void> {
  let target = saver;
  for (
    let inner = (target as { inner?: BaseCheckpointSaver }).inner;
    inner;
    inner = (target as { inner?: BaseCheckpointSaver }).inner
  )
    target = inner; // decorators
  const close = closers.get(target);
  closers.delete(target);
  await close?.();
}
