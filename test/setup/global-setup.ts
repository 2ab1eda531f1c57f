import type { TestProject } from "vitest/node";
import { startTestPostgres, type TestPostgresServer } from "./postgres-server.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** postgres:// URL of the server started for this run, or "" when none could be started. */
    postgresUrl: string;
    /** Why no PostgreSQL server is available ("" when one is). */
    postgresUnavailable: string;
  }
}

let server: TestPostgresServer | undefined;

/** Starts the real services integration tests use (PostgreSQL) once per run. */
export default async function setup(project: TestProject) {
  const started = Date.now();
  // A sign of life on stderr: the run is quiet while initdb and the server start.
  process.stderr.write("skillgraph: starting PostgreSQL for the integration tests...\n");
  try {
    server = await startTestPostgres();
    process.stderr.write(`skillgraph: PostgreSQL started in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    project.provide("postgresUrl", server.url);
    project.provide("postgresUnavailable", "");
  } catch (error) {
    process.stderr.write(`skillgraph: PostgreSQL not started: ${(error as Error).message}\n`);
    if (process.env.CI === "true") throw error;
    project.provide("postgresUrl", "");
    project.provide("postgresUnavailable", String((error as Error).message));
  }
  return () => server?.stop();
}
