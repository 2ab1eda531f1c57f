// The deployment's two graphs behind the Agent Server's thread and run routes (createEmbedServer, as in
// embed-server.ts, with in-memory checkpoints and thread records in a temporary file), on a free local port, driven
// through @langchain/langgraph-sdk's Client as an application would: one thread per graph, one streamed run each that
// loads a skill and answers, then the thread's state says which skills stay loaded (load mode "session").
// OPENAI_BASE_URL=http://127.0.0.1:8787/v1 node --conditions=@skillgraph/source --import tsx examples/agent-server/src/sdk-demo.ts
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { createEmbedServer } from "@langchain/langgraph-api/experimental/embed";
import { Client } from "@langchain/langgraph-sdk";
import { closeCheckpointer, createCheckpointer } from "@skillgraph/checkpoint";
import { fileThreads } from "./file-threads.js";
import { graph } from "./interceptor-graph.js";
import { agent } from "./skills-agent.js";

const work = mkdtempSync(join(tmpdir(), "skillgraph-agent-server-demo-"));
const checkpointer = await createCheckpointer("memory:");
const app = createEmbedServer({
  graph: { skills_agent: agent as never, interceptor_graph: graph as never },
  threads: fileThreads(join(work, "threads.json")),
  checkpointer,
});
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
await new Promise<void>((listening) => server.once("listening", () => listening()));
const client = new Client({ apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });

/** The skills a thread's state holds as loaded (the skills middleware's state, agent "default"). */
function loadedSkills(values: unknown): string[] {
  const state = values as { skillgraph?: Record<string, { load: { loaded: Record<string, unknown> } }> };
  return Object.keys(state.skillgraph?.default?.load.loaded ?? {}).sort();
}

/** One thread on `graphId`, one streamed run with `ask`; the last answer and the skills the thread keeps loaded. */
async function ask(graphId: string, question: string): Promise<{ answer: string; loaded: string[] }> {
  const thread = await client.threads.create();
  const stream = client.runs.stream(thread.thread_id, graphId, {
    input: { messages: [{ role: "user", content: question }] },
    streamMode: "values",
  });
  for await (const chunk of stream) if (chunk.event === "error") throw new Error(JSON.stringify(chunk.data));
  const state = await client.threads.getState(thread.thread_id);
  const messages = (state.values as { messages: Array<{ type: string; content: unknown }> }).messages;
  const answer = messages.filter((message) => message.type === "ai").at(-1)?.content;
  return { answer: typeof answer === "string" ? answer : JSON.stringify(answer), loaded: loadedSkills(state.values) };
}

try {
  for (const [graphId, question] of [
    ["skills_agent", "Write the release notes for v1.3.0."],
    ["interceptor_graph", "Write the commit message for the --source rename."],
  ] as const) {
    const { answer, loaded } = await ask(graphId, question);
    process.stdout.write(`${graphId}: ${answer}\n  skills loaded on the thread: ${loaded.join(", ")}\n`);
  }
} finally {
  server.close();
  await closeCheckpointer(checkpointer);
  rmSync(work, { recursive: true, force: true });
}
