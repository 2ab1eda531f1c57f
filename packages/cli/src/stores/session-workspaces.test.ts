import { mkdirSync, mkdtempSync, existsSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  pruneSessionWorkspaces,
  removeSessionWorkspace,
  sessionFolderName,
  sessionWorkspaceRoot,
  workspacesFolder,
} from "./session-workspaces.js";

describe("session workspaces", () => {
  it("live beside the SQLite file, under .skillgraph for PostgreSQL, nowhere for memory", () => {
    expect(workspacesFolder("sqlite:.skillgraph/sessions.db", "/p")).toBe("/p/.skillgraph/workspaces");
    expect(workspacesFolder("sqlite:/data/s.db", "/p")).toBe("/data/workspaces");
    expect(workspacesFolder("postgres://u@h/db", "/p")).toBe("/p/.skillgraph/workspaces");
    expect(workspacesFolder("memory:", "/p")).toBeUndefined();
    expect(workspacesFolder("sqlite::memory:", "/p")).toBeUndefined();
    expect(sessionWorkspaceRoot("sqlite:/data/s.db", "/p", "q3")).toBe("/data/workspaces/q3");
  });

  it("never lets a session name become a path", () => {
    expect(sessionFolderName("chat-20261125-ab12")).toBe("chat-20261125-ab12");
    for (const name of ["../etc", "a/b", ".hidden", "x..y", "", "é"])
      expect(sessionFolderName(name)).toMatch(/^session-[0-9a-f]{24}$/);
  });

  it("delete removes one session's workspace; prune removes orphans and, with an age, the unused", async () => {
    const dir = mkdtempSync(join(tmpdir(), "session-ws-"));
    const url = `sqlite:${join(dir, "sessions.db")}`;
    for (const name of ["live", "stale", "orphan", "gone"]) {
      mkdirSync(join(dir, "workspaces", name, "thread-x"), { recursive: true });
      writeFileSync(join(dir, "workspaces", name, "thread-x", "f"), "x");
    }
    expect(await removeSessionWorkspace(url, dir, "gone")).toBe(true);
    expect(await removeSessionWorkspace(url, dir, "gone")).toBe(false);
    const old = new Date(Date.now() - 10 * 86_400_000);
    for (const path of ["", "thread-x"]) utimesSync(join(dir, "workspaces", "stale", path), old, old);
    expect(await pruneSessionWorkspaces(url, dir, ["live", "stale"])).toEqual(["orphan"]);
    expect(await pruneSessionWorkspaces(url, dir, ["live", "stale"], { maxAgeMs: 86_400_000 })).toEqual(["stale"]);
    expect(existsSync(join(dir, "workspaces", "live", "thread-x", "f"))).toBe(true);
  });
});
