import { BaseCheckpointSaver, type MemorySaver } from "@langchain/langgraph-checkpoint";
import type Database from "better-sqlite3";
import type pg from "pg";
import { CheckpointerError } from "../errors/checkpointer-error.js";
import { assertCheckedSaverVersion, installedSaverVersion } from "./saver-versions.js";

/** The database under an official saver, reached through its fields (the savers offer no API for it). */
export type SaverBackend =
  | { kind: "sqlite"; saver: BaseCheckpointSaver; db: Database.Database; ensureTables: () => void }
  | { kind: "postgres"; saver: BaseCheckpointSaver; pool: pg.Pool; schema: string }
  | { kind: "memory"; saver: MemorySaver };

// The official savers keep their connection in fields (PostgresSaver's are TypeScript-private but plain properties at run time).
interface SaverInternals {
  db?: Database.Database;
  setup?: () => unknown;
  pool?: pg.Pool;
  options?: { schema?: string };
  storage?: unknown;
  writes?: unknown;
}

/**
 * The backend of a SqliteSaver, PostgresSaver or MemorySaver, unwrapping decorators (`inner`); throws for other savers,
 * and for a SQLite or PostgreSQL saver package of a release line whose internals were not checked (`saver-versions`).
 * @param saver The saver.
 * @param versionOf The saver package's version (the installed one; tests pass another).
 */
export function saverBackend(
  saver: BaseCheckpointSaver,
  versionOf: (kind: "sqlite" | "postgres") => string | undefined = installedSaverVersion,
): SaverBackend {
  const inner = (saver as { inner?: unknown }).inner;
  if (inner instanceof BaseCheckpointSaver) return saverBackend(inner, versionOf);
  const internals = saver as unknown as SaverInternals;
  if (typeof internals.db?.prepare === "function" && typeof internals.db?.transaction === "function") {
    assertCheckedSaverVersion("sqlite", versionOf("sqlite"));
    return { kind: "sqlite", saver, db: internals.db, ensureTables: () => internals.setup?.() };
  }
  if (typeof internals.pool?.connect === "function" && typeof internals.pool?.query === "function") {
    assertCheckedSaverVersion("postgres", versionOf("postgres"));
    return { kind: "postgres", saver, pool: internals.pool, schema: internals.options?.schema ?? "public" };
  }
  if (
    internals.storage &&
    typeof internals.storage === "object" &&
    internals.writes &&
    typeof internals.writes === "object"
  ) {
    return { kind: "memory", saver: saver as MemorySaver };
  }
  throw new CheckpointerError({
    url: saver.constructor.name,
    reason: "unsupported-saver",
    message: `Cannot work on a ${saver.constructor.name}: only SqliteSaver, PostgresSaver and MemorySaver are supported.`,
  });
}
