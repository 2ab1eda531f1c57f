import { MemorySaver, type BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import pg from "pg";
import { describeDriverError as describe } from "../database/connection-errors.js";
import { guardPostgresPool } from "../database/guard-postgres-pool.js";
import { ResilientPostgresSaver } from "../database/resilient-postgres-saver.js";
import { openSqliteSaver } from "../database/open-sqlite.js";
import { retryWhileRestarting, type StartupGaveUp } from "../database/startup-retry.js";
import { CheckpointerError } from "../errors/checkpointer-error.js";
import { reservePoolConnections } from "../database/pool-priority.js";
import { parseOptions } from "../internal/core.js";
import { createCheckpointerOptionsSchema, type CreateCheckpointerOptions } from "./create-checkpointer-options.js";
import { parseCheckpointerUrl } from "./parse-checkpointer-url.js";
import { redactUrl } from "./redact-url.js";

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
 * - `postgres://USER:PASSWORD@HOST:PORT/DB[?schema=NAME]`: the official `PostgresSaver`, `setup()` run for you; while
 *   the server is restarting (connection refused, 57P03, 57P01) setup is retried for up to `startupRetryMs` (30 s).
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
  const resolved = parseOptions(createCheckpointerOptionsSchema, options);
  const target = parseCheckpointerUrl(url, resolved.cwd);
  if (target.kind === "memory") {
    const saver = new MemorySaver();
    closers.set(saver, async () => undefined);
    return saver;
  }
  if (target.kind === "sqlite") return openSqlite(target.path, redactUrl(url));
  return openPostgres(url, target, resolved);
}

/** An official SqliteSaver on a file (see `openSqliteSaver`), registered for `closeCheckpointer`. */
function openSqlite(path: string, shown: string): BaseCheckpointSaver {
  const { saver, close } = openSqliteSaver(path, shown);
  closers.set(saver, async () => close());
  return saver;
}

/**
 * The official PostgresSaver (retrying an operation once on a lost connection), its tables set up; while the server
 * is restarting, setup is retried on a new pool for up to `startupRetryMs`.
 */
async function openPostgres(
  url: string,
  target: { connectionString: string; schema: string },
  options: { connectTimeoutMs: number; retryDelayMs: number; startupRetryMs: number; reservedConnections: number },
): Promise<BaseCheckpointSaver> {
  const shown = redactUrl(url);
  const scrub = scrubber(url);
  const attempt = async () => {
    const pool = new pg.Pool({
      connectionString: target.connectionString,
      connectionTimeoutMillis: options.connectTimeoutMs,
    });
    guardPostgresPool(pool); // a connection the server ends (restart, idle cut) must not crash the process
    const saver = new ResilientPostgresSaver(
      pool,
      { schema: target.schema },
      { url: shown, delayMs: options.retryDelayMs, scrub },
    );
    try {
      await saver.setup();
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
    return { pool, saver };
  };
  const outcome = await retryWhileRestarting(attempt, options.startupRetryMs);
  if ("gaveUp" in outcome)
    throw setupError(outcome.gaveUp, { shown, schema: target.schema, scrub, startupRetryMs: options.startupRetryMs });
  const { pool, saver } = outcome.value;
  // The short timeout is for reaching the server at all (setup above). Later, under load, waiting for one of the pool's
  // 10 connections is not a failure: pg-pool applies the same option to that wait, so lengthen it now.
  (pool as unknown as { options: { connectionTimeoutMillis: number } }).options.connectionTimeoutMillis = Math.max(
    options.connectTimeoutMs,
    60_000,
  );
  reservePoolConnections(pool, options.reservedConnections);
  closers.set(saver, () => pool.end());
  return saver;
}

/** The CheckpointerError for a PostgreSQL setup that failed: unreachable (with the attempts made) or tables not set up. */
function setupError(
  gaveUp: StartupGaveUp,
  {
    shown,
    schema,
    scrub,
    startupRetryMs,
  }: { shown: string; schema: string; scrub: (text: string) => string; startupRetryMs: number },
): CheckpointerError {
  const { cause, attempts, elapsedMs, timedOut } = gaveUp;
  const code = (cause as { code?: string }).code ?? (cause as { errors?: Array<{ code?: string }> }).errors?.[0]?.code;
  const unreachable =
    timedOut || (code !== undefined && unreachableCodes.has(code)) || /timeout|terminated/i.test(describe(cause));
  const last = scrub(describe(cause));
  const seconds = (elapsedMs / 1000).toFixed(1);
  const waited =
    timedOut && startupRetryMs > 0
      ? `still restarting or refusing connections after ${attempts} attempt${attempts === 1 ? "" : "s"} over ${seconds} s (startupRetryMs ${startupRetryMs}); last error: `
      : attempts > 1
        ? `after ${attempts} attempts over ${seconds} s (it was restarting), `
        : "";
  // The driver error is summarised (password scrubbed) rather than attached: its fields may carry the connection string.
  return new CheckpointerError({
    url: shown,
    reason: unreachable ? "unreachable" : "setup-failed",
    message: unreachable
      ? `Cannot reach PostgreSQL at '${shown}': ${waited}${last}`
      : `Cannot set up checkpoint tables in schema '${schema}' at '${shown}': ${waited}${last}`,
    attempts,
    elapsedMs,
  });
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
