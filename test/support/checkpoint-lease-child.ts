// Child process for the session lease tests: takes the lease on a thread, then runs user turns of a real LangGraph graph.
// Usage: node --import tsx test/support/checkpoint-lease-child.ts <url> <threadId> <turns> <tag> [readyFile] [goFile] [ttlMs]
// Writes <readyFile> once the lease is held and waits for <goFile> (when given) before its turns. Prints one JSON line:
// { ok: true, pid, turns } (exit 0), or { busy: message, holderPid } (exit 3) when another process holds the session.
import { existsSync, writeFileSync } from "node:fs";
import { buildSessionGraph, userTurn } from "../../packages/checkpoint/src/__fixtures__/session-graph.js";
import {
  acquireSessionLease,
  closeCheckpointer,
  createCheckpointer,
  SessionBusyError,
  withPruning,
} from "../../packages/checkpoint/src/index.js";

const [url, threadId, turnsText, tag, readyFile, goFile, ttlText] = process.argv.slice(2);
if (!url || !threadId || !turnsText || !tag) {
  process.stderr.write(
    "usage: checkpoint-lease-child.ts <url> <threadId> <turns> <tag> [readyFile] [goFile] [ttlMs]\n",
  );
  process.exit(2);
}

const saver = await createCheckpointer(url);
// As the CLI does: pruned on write (the lease guards the wrapper's writes too).
const pruned = withPruning(saver, { keepLast: 20, onWrite: { every: 25 } });
let lease;
try {
  lease = await acquireSessionLease(pruned, threadId, ttlText ? { ttlMs: Number(ttlText) } : {});
} catch (error) {
  await closeCheckpointer(saver);
  if (!SessionBusyError.isInstance(error)) throw error;
  process.stdout.write(
    `${JSON.stringify({ busy: error.message, holderPid: (error as SessionBusyError).holder.pid })}\n`,
  );
  process.exit(3);
}
try {
  if (readyFile) writeFileSync(readyFile, String(process.pid));
  while (goFile && !existsSync(goFile)) await new Promise((resolve) => setTimeout(resolve, 20));
  const graph = buildSessionGraph({
    checkpointer: lease.protect(pruned),
    messages: "delta",
    script: [],
    lookup: () => undefined,
  });
  const turns = Number(turnsText);
  for (let index = 0; index < turns; index += 1) {
    await graph.invoke(userTurn(`${tag} turn ${index}`, `${tag}-${index}`), { configurable: { thread_id: threadId } });
  }
  process.stdout.write(`${JSON.stringify({ ok: true, pid: process.pid, turns })}\n`);
} finally {
  await lease.release();
  await closeCheckpointer(saver);
}
