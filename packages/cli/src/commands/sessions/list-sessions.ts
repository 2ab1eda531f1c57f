import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { inspectSession, listSessions } from "@skillgraph/checkpoint";
import { formatTable, truncate } from "../../output/format-table.js";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import { formatBytes } from "./parse-duration.js";
import type { SessionsContext } from "./sessions-command.js";

/** The session's first user message (what it was started with), or undefined when it has none. */
async function firstPrompt(saver: BaseCheckpointSaver, threadId: string): Promise<string | undefined> {
  const session = await inspectSession(saver, threadId);
  return session.messages.find((message) => message.type === "human")?.content;
}

/** `sessions list`: every stored session with its size and first prompt, as a table or JSON. */
export async function listStoredSessions(saver: BaseCheckpointSaver, context: SessionsContext): Promise<number> {
  const { json, out, style } = context;
  const sessions = await listSessions(saver);
  const firstPrompts = await Promise.all(sessions.map((s) => firstPrompt(saver, s.threadId)));
  if (json) {
    out(
      JSON.stringify({
        sessions: sessions.map((s, index) => ({
          ...s,
          updatedAt: s.updatedAt === undefined ? null : new Date(s.updatedAt).toISOString(),
          firstPrompt: firstPrompts[index] ?? null,
        })),
      }),
    );
    return 0;
  }
  if (sessions.length === 0) {
    out("No sessions.");
    return 0;
  }
  const rows = [["NAME", "UPDATED", "CHECKPOINTS", "WRITES", "SIZE", "FIRST PROMPT"].map((h) => style.dim(h))];
  sessions.forEach((s, index) =>
    rows.push([
      style.bold(terminalSafeLine(s.threadId)),
      s.updatedAt ? new Date(s.updatedAt).toISOString().replace("T", " ").slice(0, 19) : "-",
      String(s.checkpoints),
      String(s.writes),
      formatBytes(s.bytes),
      truncate(terminalSafeLine(firstPrompts[index] ?? "-"), 50),
    ]),
  );
  out(formatTable(rows));
  return 0;
}
