import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { CheckpointerError } from "../errors/checkpointer-error.js";
import { closeCheckpointer, createCheckpointer } from "./create-checkpointer.js";
import { holdRefusingPort, type RefusingPort } from "../../../../test/support/refusing-port.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const held: RefusingPort[] = [];
afterEach(async () => {
  for (const port of held.splice(0)) await port.close();
});

/** A loopback port that refuses connections until the test ends (see holdRefusingPort). */
async function closedPort(): Promise<number> {
  const port = await holdRefusingPort();
  held.push(port);
  return port.port;
}

describe("createCheckpointer", () => {
  it("opens a SQLite file relative to cwd, creating its parent folders and tables", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-ckpt-"));
    dirs.push(dir);
    const saver = await createCheckpointer("sqlite:.skillgraph/nested/sessions.db", { cwd: dir });
    expect(existsSync(join(dir, ".skillgraph/nested/sessions.db"))).toBe(true);
    expect(await saver.getTuple({ configurable: { thread_id: "none" } })).toBeUndefined();
    await closeCheckpointer(saver);
  });

  it("a new SQLite file gets auto_vacuum INCREMENTAL (pruning gives pages back); an existing file keeps its setting", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-ckpt-"));
    dirs.push(dir);
    const autoVacuum = (saver: BaseCheckpointSaver) =>
      (saver as unknown as { db: Database.Database }).db.pragma("auto_vacuum", { simple: true });
    const fresh = await createCheckpointer("sqlite:fresh.db", { cwd: dir });
    expect(autoVacuum(fresh)).toBe(2);
    await closeCheckpointer(fresh);
    const plain = new Database(join(dir, "plain.db"));
    plain.exec("CREATE TABLE other (a)");
    plain.close();
    const existing = await createCheckpointer("sqlite:plain.db", { cwd: dir });
    expect(autoVacuum(existing)).toBe(0); // setting it now would change nothing, and it would be a write
    expect(await existing.getTuple({ configurable: { thread_id: "none" } })).toBeUndefined();
    await closeCheckpointer(existing);
  });

  it("gives an in-process saver for memory:", async () => {
    const saver = await createCheckpointer("memory:");
    expect(saver.constructor.name).toBe("MemorySaver");
  });

  it("rejects an unknown scheme, naming it", async () => {
    const error = await createCheckpointer("redis://localhost:6379").catch((e: unknown) => e);
    expect(CheckpointerError.isInstance(error)).toBe(true);
    expect((error as CheckpointerError).reason).toBe("unknown-scheme");
    expect((error as Error).message).toContain("redis:");
  });

  it("rejects a sqlite: URL without a path", async () => {
    await expect(createCheckpointer("sqlite:")).rejects.toThrow(/no database path/);
  });

  it("reports an unreachable PostgreSQL server with the URL, the password redacted", async () => {
    const port = await closedPort();
    const error = (await createCheckpointer(`postgres://bob:s3cret@127.0.0.1:${port}/db`, {
      connectTimeoutMs: 2000,
      startupRetryMs: 0,
    }).catch((e: unknown) => e)) as CheckpointerError;
    expect(error.reason).toBe("unreachable");
    expect(error.attempts).toBe(1);
    expect(error.message).toContain(`postgres://bob:***@127.0.0.1:${port}/db`);
    expect(error.message).not.toContain("s3cret");
    expect(error.message).toMatch(/ECONNREFUSED/);
  });

  it("retries a refused connection for startupRetryMs with a backoff, then says how many attempts over how long", async () => {
    const port = await closedPort();
    const error = (await createCheckpointer(`postgres://bob:s3cret@127.0.0.1:${port}/db`, {
      startupRetryMs: 1500,
    }).catch((e: unknown) => e)) as CheckpointerError;
    expect(CheckpointerError.isInstance(error)).toBe(true);
    expect(error.reason).toBe("unreachable");
    // It kept trying for the whole budget (a refusal after a few ms would otherwise end it at once); with a backoff, not
    // a busy loop: waits of 200 ms doubling (jittered down to half) fit at most 5 retries in 1.5 s. How many it made
    // depends on how long each attempt took: one attempt that outlasted the budget on a stalled machine is one too.
    expect(error.elapsedMs).toBeGreaterThanOrEqual(1500);
    expect(error.attempts).toBeGreaterThanOrEqual(1);
    expect(error.attempts).toBeLessThanOrEqual(6);
    expect(error.message).toMatch(
      new RegExp(
        `^Cannot reach PostgreSQL at 'postgres://bob:\\*\\*\\*@127\\.0\\.0\\.1:${port}/db': still restarting or refusing ` +
          `connections after ${error.attempts} attempts over \\d+\\.\\d s \\(startupRetryMs 1500\\); last error: ECONNREFUSED`,
      ),
    );
    expect(error.message).not.toContain("s3cret");
  });

  it.each([
    [
      { startupRetryMs: -1 },
      "Invalid option 'startupRetryMs': must be a non-negative integer no larger than 2147483647 (milliseconds; 0 tries once)",
    ],
    [
      { connectTimeoutMs: 0 },
      "Invalid option 'connectTimeoutMs': must be a positive integer no larger than 2147483647 (milliseconds)",
    ],
    [
      { retryDelayMs: 1.5 },
      "Invalid option 'retryDelayMs': must be a non-negative integer no larger than 2147483647 (milliseconds)",
    ],
    [{ cwd: "" }, "Invalid option 'cwd': must be a directory path"],
  ])("checks its options before opening anything: %o", async (bad, message) => {
    await expect(createCheckpointer("memory:", bad as never)).rejects.toThrow(message);
  });

  it("rejects a schema parameter that is not a plain identifier", async () => {
    await expect(createCheckpointer("postgres://u@127.0.0.1:1/db?schema=a;drop")).rejects.toThrow(
      /not a plain SQL identifier/,
    );
  });
});
