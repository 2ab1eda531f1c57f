import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildSessionGraph, userTurn } from "../__fixtures__/session-graph.js";
import { closeCheckpointer, createCheckpointer } from "../create-checkpointer/create-checkpointer.js";
import { CheckpointerError } from "../errors/checkpointer-error.js";
import { inspectSession } from "../session/inspect-session.js";
import { saverBackend } from "../store/saver-backend.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("SQLite write errors", () => {
  it("SQLITE_BUSY past the busy timeout is a CheckpointerError database-busy; the session is intact and resumes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-busy-"));
    dirs.push(dir);
    const url = `sqlite:${join(dir, "sessions.db")}`;
    const [saver, other] = [await createCheckpointer(url), await createCheckpointer(url)];
    const backend = saverBackend(saver);
    const blocker = saverBackend(other);
    if (backend.kind !== "sqlite" || blocker.kind !== "sqlite") throw new Error("expected SQLite");
    backend.db.pragma("busy_timeout = 100");
    const graph = buildSessionGraph({ checkpointer: saver, messages: "delta", script: [], lookup: () => undefined });
    const config = { configurable: { thread_id: "busy" } };
    await graph.invoke(userTurn("one", "one"), config);
    blocker.db.exec("BEGIN IMMEDIATE"); // another connection holds the write lock
    const error = await graph.invoke(userTurn("two", "two"), config).catch((e: unknown) => e);
    blocker.db.exec("ROLLBACK");
    expect(CheckpointerError.isInstance(error), String(error)).toBe(true);
    expect((error as CheckpointerError).reason).toBe("database-busy");
    expect((error as Error).message).toMatch(/stayed locked by another connection.*nothing was written/);
    const humans = async () =>
      (await inspectSession(saver, "busy")).messages.filter((m) => m.type === "human").map((m) => m.content);
    expect(await humans()).toEqual(["one"]);
    await graph.invoke(userTurn("three", "three"), config);
    expect(await humans()).toEqual(["one", "three"]);
    await Promise.all([closeCheckpointer(saver), closeCheckpointer(other)]);
  });
});
