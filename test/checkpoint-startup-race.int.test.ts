// Workers starting together on a fresh PostgreSQL database: five child processes open the same new database at once
// (the official saver's migrations, then our lease table), on twenty fresh databases in a row. Before set-up was
// serialised, concurrent CREATE TABLE / migration inserts failed with 23505 (checkpoint_migrations_pkey,
// pg_type_typname_nsp_index) in about one start-up in ten; now every open must succeed.
import { createRequire } from "node:module";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type LineChild, startLineChild } from "./support/line-child.js";
import { REPO_ROOT } from "./support/shared-paths.js";

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}
// The driver the checkpoint package itself uses (the root depends on neither pg nor its types).
const pg = createRequire(join(REPO_ROOT, "packages/checkpoint/package.json"))("pg") as {
  Client: new (config: { connectionString: string }) => PgClient;
};

const CHILD = "test/support/fleet-startup-child.ts";
const WORKERS = 5;
const ROUNDS = 20;
const serverUrl = inject("postgresUrl");
const unavailable = serverUrl ? undefined : `no PostgreSQL server: ${inject("postgresUnavailable")}`;
const children: LineChild[] = [];
let admin: PgClient | undefined;

beforeAll(async () => {
  if (unavailable) return;
  admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  for (let index = 0; index < WORKERS; index += 1) children.push(startLineChild(CHILD, []));
  await Promise.all(children.map((child) => child.waitFor((line) => line.ready === true)));
}, 120_000);

afterAll(async () => {
  for (const child of children) if (child.alive()) child.send("exit");
  await Promise.all(children.map((child) => child.exited));
  await admin?.end();
});

describe.skipIf(unavailable !== undefined)("workers starting together on a fresh PostgreSQL database", () => {
  it(`${WORKERS} processes × ${ROUNDS} fresh databases: every createCheckpointer and first lease succeeds`, async () => {
    const failures: Array<Record<string, unknown>> = [];
    const tag = randomBytes(3).toString("hex");
    for (let round = 0; round < ROUNDS; round += 1) {
      const database = `sg_race_${tag}_${round}`;
      await admin!.query(`CREATE DATABASE ${database}`);
      const url = new URL(serverUrl);
      url.pathname = `/${database}`;
      const from = children.map((child) => child.lines.length);
      // Each worker on its own thread: only the set-up is shared.
      for (const [index, child] of children.entries()) child.send(`open ${url.href} t${index} ${round}`);
      const results = await Promise.all(
        children.map((child, index) => child.waitFor((line) => line.round === String(round), 60_000, from[index])),
      );
      failures.push(...results.filter((line) => line.ok !== true));
      await admin!.query(`DROP DATABASE ${database} WITH (FORCE)`);
    }
    console.log(
      `start-up race: ${failures.length} of ${WORKERS * ROUNDS} opens failed` +
        (failures.length
          ? `: ${[...new Set(failures.map((line) => `${line.code}: ${line.message}`))].join(" | ")}`
          : ""),
    );
    expect(failures).toEqual([]);
  });
});
