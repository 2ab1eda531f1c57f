import { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { afterEach, describe, expect, it } from "vitest";
import { buildSessionGraph, userTurn } from "../__fixtures__/session-graph.js";
import { closeCheckpointer, createCheckpointer } from "../create-checkpointer/create-checkpointer.js";
import { CheckpointerError } from "../errors/checkpointer-error.js";
import { InvalidOptionsError } from "../internal/core.js";
import { inspectSession } from "../session/inspect-session.js";
import { withPruning } from "./with-pruning.js";

const open: BaseCheckpointSaver[] = [];
afterEach(async () => {
  for (const saver of open.splice(0)) await closeCheckpointer(saver);
});

async function sqliteSaver() {
  const saver = await createCheckpointer("sqlite::memory:");
  open.push(saver);
  return saver;
}

describe("withPruning", () => {
  it("prunes on every n-th root checkpoint so a long session stays bounded, and its history stays whole", async () => {
    const saver = withPruning(await sqliteSaver(), { keepLast: 2, onWrite: { every: 5 } });
    const graph = buildSessionGraph({ checkpointer: saver, messages: "full", script: [], lookup: () => undefined });
    const counts: number[] = [];
    for (let turn = 0; turn < 30; turn += 1) {
      await graph.invoke(userTurn(`t${turn}`, `u${turn}`), { configurable: { thread_id: "t" } });
      counts.push((await saver.stats("t")).checkpoints);
    }
    expect(Math.max(...counts)).toBeLessThanOrEqual(2 + 5);
    expect((await inspectSession(saver, "t")).messages).toHaveLength(60);
  });

  it("prunes only on demand when onWrite is off", async () => {
    const saver = withPruning(await sqliteSaver(), { keepLast: 1 });
    const graph = buildSessionGraph({ checkpointer: saver, messages: "full", script: [], lookup: () => undefined });
    for (let turn = 0; turn < 5; turn += 1)
      await graph.invoke(userTurn(`t${turn}`, `u${turn}`), { configurable: { thread_id: "t" } });
    expect((await saver.stats()).checkpoints).toBe(15);
    const report = await saver.prune();
    expect(report).toMatchObject({ threads: 1, removed: 14 });
    expect(await saver.stats()).toMatchObject({ threads: 1, checkpoints: 1 });
  });

  it("checks its options once, naming the wrong one", async () => {
    const saver = await sqliteSaver();
    expect(() => withPruning(saver, {})).toThrow(InvalidOptionsError);
    expect(() => withPruning(saver, {})).toThrow(
      "Invalid option 'keepLast': set keepLast and/or maxAgeMs, or pruning would never remove anything",
    );
    expect(() => withPruning(saver, { keepLast: 0 })).toThrow(
      "Invalid option 'keepLast': must be a positive integer (the newest checkpoint of each namespace is always kept)",
    );
    expect(() => withPruning(saver, { maxAgeMs: -1 })).toThrow(
      "Invalid option 'maxAgeMs': must be a positive number of milliseconds",
    );
    expect(() => withPruning(saver, { maxAgeMs: Number.POSITIVE_INFINITY })).toThrow("Invalid option 'maxAgeMs'");
    expect(() => withPruning(saver, { keepLast: 1, onWrite: { every: 1.5 } })).toThrow(
      "Invalid option 'onWrite.every': must be a positive integer",
    );
    expect(() => withPruning(saver, { keepLast: 1, onWrite: "always" as never })).toThrow(
      "Invalid option 'onWrite': must be a boolean or { every: n }",
    );
    expect(withPruning(saver, { keepLast: 2, onWrite: { every: 3 } }).constructor.name).toBe("PruningCheckpointSaver");
  });

  it("refuses a saver whose storage it cannot reach", () => {
    class OtherSaver extends BaseCheckpointSaver {
      getTuple = async () => undefined;
      async *list() {}
      put = async (config: never) => config;
      putWrites = async () => undefined;
      deleteThread = async () => undefined;
    }
    const error = (() => {
      try {
        withPruning(new OtherSaver(), { keepLast: 1 });
      } catch (caught) {
        return caught;
      }
    })();
    expect(CheckpointerError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("OtherSaver");
  });
});

describe("pruneCheckpoints through a wrapper", () => {
  it("reaches the storage of the saver a withPruning wraps", async () => {
    const { pruneCheckpoints } = await import("./prune-checkpoints.js");
    const base = await createCheckpointer("memory:");
    const wrapped = withPruning(base, { keepLast: 1 });
    const graph = buildSessionGraph({ checkpointer: wrapped, messages: "full", script: [], lookup: () => undefined });
    for (let turn = 0; turn < 3; turn += 1)
      await graph.invoke(userTurn(`t${turn}`, `u${turn}`), { configurable: { thread_id: "w" } });
    expect((await pruneCheckpoints(wrapped, { keepLast: 1 })).removed).toBe(8);
    expect((await inspectSession(wrapped, "w")).messages).toHaveLength(6);
  });
});

describe("pruning a SQLite file", () => {
  it("gives the freed pages back, so the file shrinks", async () => {
    const { mkdtempSync, rmSync, statSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "sg-vacuum-"));
    const file = join(dir, "sessions.db");
    const saver = withPruning(await createCheckpointer(`sqlite:${file}`), { keepLast: 1 });
    const graph = buildSessionGraph({ checkpointer: saver, messages: "full", script: [], lookup: () => undefined });
    for (let turn = 0; turn < 20; turn += 1)
      await graph.invoke(userTurn("x".repeat(2000), `u${turn}`), { configurable: { thread_id: "v" } });
    const checkpointWal = () =>
      (saver.inner as unknown as { db: { pragma(sql: string): unknown } }).db.pragma("wal_checkpoint(TRUNCATE)");
    checkpointWal();
    const before = statSync(file).size;
    await saver.prune("v");
    checkpointWal();
    expect(statSync(file).size).toBeLessThan(before / 2);
    await closeCheckpointer(saver);
    rmSync(dir, { recursive: true, force: true });
  });
});
