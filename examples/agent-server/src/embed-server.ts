// The same two graphs behind the Agent Server's thread and run routes, with checkpoints in a real database:
// `createEmbedServer` (experimental in @langchain/langgraph-api 2.0.0) takes a checkpointer, unlike `langgraphjs dev`,
// which always uses its own JSON file. Checkpoints go to SQLite (default) or PostgreSQL through createCheckpointer,
// pruned on write as in the CLI; thread records to a JSON file. Offline: no LangSmith, no analytics, no browser.
//   PORT=2024 SKILLGRAPH_CHECKPOINT=sqlite:.skillgraph/agent-server.db node --conditions=@skillgraph/source --import tsx src/embed-server.ts
import { serve } from "@hono/node-server";
import { createEmbedServer } from "@langchain/langgraph-api/experimental/embed";
import { closeCheckpointer, createCheckpointer, redactUrl, withPruning } from "@skillgraph/checkpoint";
import { fileThreads } from "./file-threads.js";
import { graph } from "./interceptor-graph.js";
import { agent } from "./skills-agent.js";

const url = process.env.SKILLGRAPH_CHECKPOINT ?? "sqlite:.skillgraph/agent-server.db";
const saver = await createCheckpointer(url);
const checkpointer = withPruning(saver, { keepLast: 20, onWrite: { every: 25 } });
const app = createEmbedServer({
  graph: { skills_agent: agent as never, interceptor_graph: graph as never },
  threads: fileThreads(process.env.SKILLGRAPH_THREADS_FILE ?? ".skillgraph/agent-server-threads.json"),
  checkpointer,
});

const port = Number(process.env.PORT ?? 2024);
const server = serve({ fetch: app.fetch, port, hostname: process.env.HOST ?? "127.0.0.1" }, (info) => {
  process.stdout.write(`listening on http://${info.address}:${info.port} (checkpoints: ${redactUrl(url)})\n`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close();
    void closeCheckpointer(checkpointer).finally(() => process.exit(0));
  });
}
