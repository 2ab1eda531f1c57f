// Child process for the fault tests: holds the lease on one session and runs the turns it is told to on stdin, on
// a real LangGraph graph over createCheckpointer(url) with pruning, the way the CLI serves a session.
// Usage: node --import tsx test/support/fault-child.ts <url> <threadId> [ttlMs]
// stdin lines: `turn <id>` runs one turn (human message id and text `<id>`); `busy <n> <prefix>` runs n turns back to
// back; `exit` releases and exits. stdout: one JSON line per turn, { id, ok: true } or { id, ok: false, code, message },
// and { ready: true, pid, token, tookOverFromDeadPid } once the lease is held.
import { createInterface } from "node:readline";
import { buildSessionGraph, userTurn } from "../../packages/checkpoint/src/__fixtures__/session-graph.js";
import {
  acquireSessionLease,
  closeCheckpointer,
  createCheckpointer,
  withPruning,
} from "../../packages/checkpoint/src/index.js";

const [url, threadId, ttlText] = process.argv.slice(2);
if (!url || !threadId) {
  process.stderr.write("usage: fault-child.ts <url> <threadId> [ttlMs]\n");
  process.exit(2);
}
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

const saver = await createCheckpointer(url);
const pruned = withPruning(saver, { keepLast: 20, onWrite: { every: 5 } });
const lease = await acquireSessionLease(pruned, threadId, ttlText ? { ttlMs: Number(ttlText) } : {});
const graph = buildSessionGraph({
  checkpointer: lease.protect(pruned),
  messages: "delta",
  script: [],
  lookup: () => undefined,
});
print({ ready: true, pid: process.pid, token: lease.holder.token, tookOverFromDeadPid: lease.tookOverFromDeadPid });

async function turn(id: string): Promise<void> {
  const startedAt = Date.now();
  try {
    await graph.invoke(userTurn(id, id), { configurable: { thread_id: threadId } });
    print({ id, ok: true, startedAt, at: Date.now() });
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    print({ id, ok: false, code, message, startedAt, at: Date.now() });
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  const [command, first, second] = line.trim().split(/\s+/);
  if (command === "turn" && first) await turn(first);
  else if (command === "busy" && first && second) {
    for (let index = 0; index < Number(first); index += 1) await turn(`${second}-${index}`);
    print({ busyDone: second });
  } else if (command === "exit") break;
}
await lease.release();
await closeCheckpointer(saver);
print({ exited: true });
process.exit(0); // stdin stays open otherwise
