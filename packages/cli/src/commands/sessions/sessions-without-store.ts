// A sqlite: sessions file that does not exist yet: nothing is stored, and there is no reason to create the file.
import { existsSync } from "node:fs";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import type { SessionsCommand, SessionsContext } from "./sessions-command.js";

/** A sqlite: URL's file that does not exist yet (undefined for other URLs, in-memory SQLite and existing files). */
export function missingSqliteFile(url: string, cwd: string): string | undefined {
  if (!url.startsWith("sqlite:") || url === "sqlite::memory:") return undefined;
  const path = url.slice("sqlite:".length);
  const absolute = path.startsWith("/") ? path : `${cwd}/${path}`;
  return existsSync(absolute) ? undefined : absolute;
}

/** The answer without a store: list and prune-all find nothing (exit 0); a named session is not found (exit 1). */
export function answerWithoutStore(command: SessionsCommand, missing: string, context: SessionsContext): number {
  const { out, io } = context;
  if (command.action === "list" || (command.action === "prune" && !command.name)) {
    if (context.json) out(JSON.stringify(command.action === "list" ? { sessions: [] } : { threads: 0, removed: 0 }));
    else out(`No sessions: ${missing} does not exist.`);
    return 0;
  }
  io.stderr.write(`error: session '${terminalSafeLine(command.name!)}' not found: ${missing} does not exist.\n`);
  return 1;
}
