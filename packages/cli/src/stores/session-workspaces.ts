// Where `skillgraph chat` keeps a session's workspace (the files its commands write), so that any process resuming
// the session finds them, and `skillgraph sessions delete` / `prune` removes them with the session.
import { createHash } from "node:crypto";
import { readdir, rm, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";

/**
 * The folder holding every session's workspace for a sessions URL: beside the SQLite file (`.skillgraph/sessions.db`
 * -> `.skillgraph/workspaces/`); for PostgreSQL, `.skillgraph/workspaces/` under the working folder; none for an
 * in-memory store (its sessions end with the process, and so do their workspaces).
 */
export function workspacesFolder(url: string, cwd: string): string | undefined {
  if (url === "memory:" || url === "sqlite::memory:" || url.startsWith("memory:")) return undefined;
  if (url.startsWith("sqlite:")) {
    const file = url.slice("sqlite:".length);
    return join(dirname(isAbsolute(file) ? file : resolve(cwd, file)), "workspaces");
  }
  return resolve(cwd, ".skillgraph", "workspaces");
}

/**
 * The folder name of a session's workspaces: the session name when it is a plain file name, else a digest of it (a
 * name never reaches the file system as a path).
 */
export function sessionFolderName(session: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(session) && !session.includes("..")
    ? session
    : `session-${createHash("sha256").update(session).digest("hex").slice(0, 24)}`;
}

/** The workspace root of one session (the shell keeps the thread's workspace inside it), or undefined (in memory). */
export function sessionWorkspaceRoot(url: string, cwd: string, session: string): string | undefined {
  const folder = workspacesFolder(url, cwd);
  return folder === undefined ? undefined : join(folder, sessionFolderName(session));
}

/** Removes a session's workspace; true when there was one. */
export async function removeSessionWorkspace(url: string, cwd: string, session: string): Promise<boolean> {
  const root = sessionWorkspaceRoot(url, cwd, session);
  if (root === undefined) return false;
  const existed = await stat(root).then(
    () => true,
    () => false,
  );
  await rm(root, { recursive: true, force: true });
  return existed;
}

/** Newest modification time of a folder and its direct entries (a workspace is "used" when its thread folder is). */
async function lastUsed(folder: string): Promise<number> {
  let newest = (await stat(folder)).mtimeMs;
  for (const entry of await readdir(folder).catch(() => [])) {
    const info = await stat(join(folder, entry)).catch(() => undefined);
    if (info) newest = Math.max(newest, info.mtimeMs);
  }
  return newest;
}

/**
 * Removes the workspaces of sessions that no longer exist (deleted elsewhere, or an interrupted `--ephemeral`), and,
 * with `maxAgeMs`, those unused for longer than that. Returns the folder names removed.
 * @param liveSessions names of the sessions the store still holds
 * @param options.maxAgeMs also remove workspaces unused for longer than this
 * @param options.only look at this session's workspace only
 */
export async function pruneSessionWorkspaces(
  url: string,
  cwd: string,
  liveSessions: readonly string[],
  options: { maxAgeMs?: number; only?: string } = {},
): Promise<string[]> {
  const folder = workspacesFolder(url, cwd);
  if (folder === undefined) return [];
  const { maxAgeMs, only } = options;
  const live = new Set(liveSessions.map(sessionFolderName));
  const removed: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory() || (only !== undefined && entry.name !== sessionFolderName(only))) continue;
    const path = join(folder, entry.name);
    const stale = maxAgeMs !== undefined && Date.now() - (await lastUsed(path)) > maxAgeMs;
    if (live.has(entry.name) && !stale) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}
