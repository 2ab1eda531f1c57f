// Child process for the full-disk test: a fleet worker (re)started on a full disk. It opens the checkpointer at <url>,
// reads every session (listSessions, then each one's human messages), then tries one turn on <writeThread>.
// Prints one JSON line: { sessions: { thread: [human texts] }, write: { ok } | { ok: false, code, message } }, or
// { openFailed: { code, message } } when the open itself failed.
// Usage: node --import tsx test/support/fleet-sessions-reader.ts <url> <writeThread>
import { buildSessionGraph, userTurn } from "../../packages/checkpoint/src/__fixtures__/session-graph.js";
import {
  closeCheckpointer,
  createCheckpointer,
  inspectSession,
  listSessions,
} from "../../packages/checkpoint/src/index.js";

const [url, writeThread] = process.argv.slice(2);
if (!url || !writeThread) {
  process.stderr.write("usage: fleet-sessions-reader.ts <url> <writeThread>\n");
  process.exit(2);
}
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const failure = (error: unknown) => {
  const { code, message } = error as { code?: string; message?: string };
  return { code, message };
};

let saver;
try {
  saver = await createCheckpointer(url);
} catch (error) {
  print({ openFailed: failure(error) });
  process.exit(0);
}
const sessions: Record<string, string[]> = {};
for (const { threadId } of await listSessions(saver)) {
  const { messages } = await inspectSession(saver, threadId);
  sessions[threadId] = messages.filter((message) => message.type === "human").map((message) => message.content);
}
const graph = buildSessionGraph({ checkpointer: saver, messages: "delta", script: [], lookup: () => undefined });
const write = await graph
  .invoke(userTurn(`big ${"x".repeat(64 * 1024)}`, "big"), { configurable: { thread_id: writeThread } })
  .then(
    () => ({ ok: true }),
    (error: unknown) => ({ ok: false, ...failure(error) }),
  );
await closeCheckpointer(saver);
print({ sessions, write });
