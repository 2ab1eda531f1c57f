// Child process for the SIGKILL test: runs one user turn of a real LangGraph tool loop on a checkpointer URL.
// Usage: node --import tsx test/support/session-child.ts <run|resume> <url> <threadId> <sideFile> <readyFile>
// `run`: the model calls load_skill, echo and slow in one batch; `slow` waits until the other two calls' writes are stored,
// touches <readyFile>, then hangs until the parent kills the process. `resume`: continues the thread (slow returns at once).
import { writeFileSync } from "node:fs";
import { buildSessionGraph, userTurn } from "../../packages/checkpoint/src/__fixtures__/session-graph.js";
import { closeCheckpointer, createCheckpointer } from "../../packages/checkpoint/src/index.js";

const [mode, url, threadId, sideFile, readyFile] = process.argv.slice(2);
if (!mode || !url || !threadId || !sideFile || !readyFile) {
  process.stderr.write("usage: session-child.ts <run|resume> <url> <threadId> <sideFile> <readyFile>\n");
  process.exit(2);
}

const checkpointer = await createCheckpointer(url);
const config = { configurable: { thread_id: threadId } };

async function waitForOtherWrites(): Promise<void> {
  for (;;) {
    const tuple = await checkpointer.getTuple(config);
    const stored = (tuple?.pendingWrites ?? []).filter(([, channel]) => channel === "messages").length;
    if (stored >= 2) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const graph = buildSessionGraph({
  checkpointer,
  messages: "delta",
  script: [
    {
      calls: [
        { name: "load_skill", args: { name: "pdf" } },
        { name: "echo", args: { text: "hello" } },
        { name: "slow", args: {} },
      ],
    },
    { say: "finished" },
  ],
  lookup: (name) => (name === "pdf" ? { hash: "hash-pdf-1" } : undefined),
  sideFile,
  tools: {
    slow: async () => {
      if (mode === "run") {
        await waitForOtherWrites();
        writeFileSync(readyFile, "ready");
        await new Promise(() => setInterval(() => undefined, 1000)); // killed here
      }
      return "slow done";
    },
  },
});

await graph.invoke(mode === "run" ? userTurn("please work", "user-1") : null, config);
await closeCheckpointer(checkpointer);
process.stdout.write("finished\n");
