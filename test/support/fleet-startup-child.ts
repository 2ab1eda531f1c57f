// Child process for the start-up race test: a fleet worker starting on a database nobody set up yet. It waits for
// `open <url> <threadId> <round>` lines on stdin and, for each, opens the checkpointer (the saver's migrations), takes
// and releases a lease (the lease table), and closes; prints { round, ok: true } or { round, ok: false, code, message }.
// Prints { ready: true } first; `exit` ends it.
import { createInterface } from "node:readline";
import { acquireSessionLease, closeCheckpointer, createCheckpointer } from "../../packages/checkpoint/src/index.js";

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

async function open(url: string, threadId: string, round: string): Promise<void> {
  try {
    const saver = await createCheckpointer(url, { startupRetryMs: 0 });
    try {
      const lease = await acquireSessionLease(saver, threadId);
      await lease.release();
    } finally {
      await closeCheckpointer(saver);
    }
    print({ round, ok: true });
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    print({ round, ok: false, code, message });
  }
}

print({ ready: true });
for await (const line of createInterface({ input: process.stdin })) {
  const [command, url, threadId, round] = line.trim().split(/\s+/);
  if (command === "open" && url && threadId && round) await open(url, threadId, round);
  else if (command === "exit") break;
}
process.exit(0);
