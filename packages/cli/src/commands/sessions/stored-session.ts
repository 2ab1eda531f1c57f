import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { listSessions, redactUrl } from "@skillgraph/checkpoint";
import { terminalSafeLine } from "../../output/terminal-safe.js";
import type { SessionsContext } from "./sessions-command.js";

/** True when the store holds a session (thread) named `name`; otherwise says so on stderr, naming the store. */
export async function requireStoredSession(
  saver: BaseCheckpointSaver,
  name: string,
  context: SessionsContext,
): Promise<boolean> {
  if ((await listSessions(saver)).some((session) => session.threadId === name)) return true;
  context.io.stderr.write(`error: session '${terminalSafeLine(name)}' not found in ${redactUrl(context.url)}\n`);
  return false;
}
