// createCheckpointer while PostgreSQL restarts, on a server of its own (it is stopped and started, so not the run's
// shared one): setup started while the server is down waits for it (bounded by startupRetryMs) and succeeds; a
// connection during start-up meets 57P03, which counts as restarting; a wrong password or an unknown database fails at
// once, whatever the budget.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CheckpointerError, closeCheckpointer, createCheckpointer } from "../packages/checkpoint/src/index.js";
import { isServerRestarting } from "../packages/checkpoint/src/database/startup-retry.js";
import { startTestPostgres, type TestPostgresServer } from "./setup/postgres-server.js";
import { REPO_ROOT } from "./support/shared-paths.js";

/** The little of pg's Client used here. */
interface PgClient {
  connect(): Promise<void>;
  query<Row>(sql: string): Promise<{ rows: Row[] }>;
  end(): Promise<void>;
  on(event: "error", listener: () => void): void;
}
// The driver the checkpoint package itself uses (the root depends on neither pg nor its types).
const pg = createRequire(join(REPO_ROOT, "packages/checkpoint/package.json"))("pg") as {
  Client: new (config: { connectionString: string; connectionTimeoutMillis?: number }) => PgClient;
};

const pgUnavailable = inject("postgresUrl") ? undefined : `no PostgreSQL server: ${inject("postgresUnavailable")}`;
let server: TestPostgresServer | undefined;

beforeAll(async () => {
  if (!pgUnavailable) server = await startTestPostgres();
}, 120_000);
afterAll(() => server?.stop());

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One connection attempt: undefined when it connected, else the driver's error. */
async function tryConnect(url: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.end();
    return undefined;
  } catch (error) {
    return error;
  }
}

async function roundTrip(saver: Awaited<ReturnType<typeof createCheckpointer>>): Promise<void> {
  const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
  const checkpoint = {
    v: 4,
    id: "1ef00000-0000-6000-8000-000000000001",
    ts: new Date().toISOString(),
    channel_values: {},
    channel_versions: {},
    versions_seen: {},
  };
  await saver.put(config, checkpoint, { source: "input", step: -1, parents: {} }, {});
  expect((await saver.getTuple(config))?.checkpoint.id).toBe(checkpoint.id);
}

describe.skipIf(pgUnavailable !== undefined)("createCheckpointer while PostgreSQL restarts", () => {
  it("started while the server is down, it waits for the server to come back and is then ready", async () => {
    const url = `${server!.url}?schema=startup_a`;
    server!.halt();
    try {
      expect((await tryConnect(server!.url)) as { code?: string }).toMatchObject({ code: "ECONNREFUSED" });
      // With no budget the down server fails at once, as it always did.
      const atOnce = (await createCheckpointer(url, { startupRetryMs: 0 }).catch(
        (e: unknown) => e,
      )) as CheckpointerError;
      expect(atOnce).toMatchObject({ reason: "unreachable", attempts: 1 });
      expect(atOnce.message).toMatch(/^Cannot reach PostgreSQL at '.*': ECONNREFUSED/);

      let resumedAt = Number.POSITIVE_INFINITY;
      const opening = createCheckpointer(url, { startupRetryMs: 60_000 }).then((saver) => ({ saver, at: Date.now() }));
      await delay(1500); // several refused attempts
      resumedAt = Date.now();
      await server!.resume();
      const { saver, at } = await opening;
      expect(at).toBeGreaterThanOrEqual(resumedAt); // it could only succeed once the server was started again
      await roundTrip(saver);
      await closeCheckpointer(saver);
      console.log(`createCheckpointer became ready ${at - resumedAt} ms after pg_ctl start began`);
    } finally {
      await server!.resume().catch(() => undefined); // already running: pg_ctl start fails, harmlessly
    }
  });

  it("a connection while the server starts up meets 57P03 or connection refused, both counted as restarting (race: seen or not)", async () => {
    const seen = new Map<string, number>();
    const deadline = Date.now() + 60_000;
    let met57P03 = false;
    while (!met57P03 && Date.now() < deadline) {
      server!.halt();
      let started = false;
      const starting = server!.resume().then(() => (started = true));
      while (!started) {
        const error = await tryConnect(server!.url);
        if (error === undefined) break;
        const code = String((error as { code?: string }).code ?? (error as Error).message);
        seen.set(code, (seen.get(code) ?? 0) + 1);
        expect(isServerRestarting(error), `${code}: ${(error as Error).message}`).toBe(true);
        if (code === "57P03") met57P03 = true;
      }
      await starting;
    }
    console.log(
      `${met57P03 ? "race met" : "race not met"}: connection errors during start-up: ` +
        ([...seen].map(([code, count]) => `${code} ×${count}`).join(", ") || "none"),
    );
  });

  it("a wrong password fails at once (no retry), naming the cause, the password redacted", async () => {
    const admin = new pg.Client({ connectionString: server!.url });
    await admin.connect();
    const { rows } = await admin.query<{ hba_file: string }>("SHOW hba_file");
    await admin.query("CREATE ROLE sg_pw LOGIN PASSWORD 'right-one'");
    await admin.query("GRANT CREATE ON DATABASE postgres TO sg_pw");
    const hba = rows[0]!.hba_file;
    writeFileSync(hba, `host all sg_pw 127.0.0.1/32 scram-sha-256\n${readFileSync(hba, "utf8")}`);
    await admin.query("SELECT pg_reload_conf()");
    await admin.end();
    const port = new URL(server!.url).port;
    const right = await createCheckpointer(`postgres://sg_pw:right-one@127.0.0.1:${port}/postgres?schema=sg_pw`);
    await closeCheckpointer(right);
    const error = (await createCheckpointer(`postgres://sg_pw:wrong-one@127.0.0.1:${port}/postgres`, {
      startupRetryMs: 60_000,
    }).catch((e: unknown) => e)) as CheckpointerError;
    expect(CheckpointerError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: "unreachable", attempts: 1 });
    expect(error.message).toMatch(/28P01: password authentication failed for user "sg_pw"/);
    expect(error.message).not.toContain("wrong-one");
  });

  it("an unknown database fails at once (no retry)", async () => {
    const port = new URL(server!.url).port;
    const error = (await createCheckpointer(`postgres://postgres@127.0.0.1:${port}/no_such_db`, {
      startupRetryMs: 60_000,
    }).catch((e: unknown) => e)) as CheckpointerError;
    expect(error).toMatchObject({ reason: "unreachable", attempts: 1 });
    expect(error.message).toMatch(/3D000: database "no_such_db" does not exist/);
  });
});
