import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { closeCheckpointer, createCheckpointer } from "../packages/checkpoint/src/index.js";
import { describeCheckpointSaver } from "./suites/checkpoint-saver.suite.js";

const baseUrl = inject("postgresUrl");

describeCheckpointSaver({
  name: "PostgreSQL (real server, own schema)",
  unavailable: baseUrl ? undefined : `no PostgreSQL server: ${inject("postgresUnavailable")}`,
  async create() {
    const url = `${baseUrl}?schema=t_${randomBytes(6).toString("hex")}`;
    return { url, checkpointer: await createCheckpointer(url) };
  },
  async destroy({ url, checkpointer }) {
    const schema = new URL(url).searchParams.get("schema");
    // The saver's pool is a plain (TypeScript-private) field; reuse it to drop this test's schema.
    await (checkpointer as unknown as { pool: { query(sql: string): Promise<unknown> } }).pool.query(
      `DROP SCHEMA IF EXISTS "${schema}" CASCADE`,
    );
    await closeCheckpointer(checkpointer);
  },
});
