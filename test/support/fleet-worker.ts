// One serving process of the fleet scenario (test/fleet.int.test.ts, bench/fleet.ts): threads served through
// createAgent + skills middleware + shell hook, checkpointed in PostgreSQL with pruning and a lease per thread, skills
// read from a PostgresStore (polled), the model over HTTP (ChatOpenAI against the scripted server).
// Usage: node --import tsx test/support/fleet-worker.ts <checkpointUrl> <storeUrl> <modelBaseUrl> <executor>
//   [C/Q/H[/alone[/fast[/refuse[/pause]]]]]
// With `C/Q/H` turns go through createTurnScheduler({ concurrency: C, maxQueued: Q, resumedHeadroom: H }) (`alone`:
// `resumedAlone`; `fast`: the takeover fast path, below; `refuse`: `admission: "refuse"`, normal turns past C refused
// with `turns-busy` and a retry-after hint instead of waiting; `pause`: `pauseForResumed`, normal turns running wait at
// their next step boundary while a resumed turn runs): a thread's
// turns after this process took its lease over (and turns the client marks `resumed`) first, `turns-busy` beyond Q;
// without it every turn runs at once. stdin (one command a line): `turn <threadId> <turnId> [resumed]` | `skill` |
// `release` | `exit`; stdout: JSON lines (a turn's line carries where its time went: lease, queue, model, tools,
// checkpoints).
import { createInterface } from "node:readline";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent } from "langchain";
import {
  acquireSessionLease,
  closeCheckpointer,
  createCheckpointer,
  createTurnScheduler,
  guardPostgresPool,
  SessionBusyError,
  SessionLeaseLostError,
  runTurnOnce,
  runWithPriority,
  type SessionLease,
  type TurnGraph,
  type TurnPriority,
  withPruning,
} from "../../packages/checkpoint/src/index.js";
import { saverBackend } from "../../packages/checkpoint/src/store/saver-backend.js";
import { HumanMessage } from "@langchain/core/messages";
import { createSkillRegistry } from "../../packages/core/src/index.js";
import { createSkillsMiddleware } from "../../packages/langgraph/src/index.js";
import { skillsFromStore } from "../../packages/langgraph/src/store-source/index.js";
import { createShellHook } from "../../packages/shell/src/index.js";
import { turnTracer } from "./fleet-turn-trace.js";

const [checkpointUrl, storeUrl, modelBaseUrl, executor, scheduling] = process.argv.slice(2);
if (!checkpointUrl || !storeUrl || !modelBaseUrl || !executor) {
  process.stderr.write("usage: fleet-worker.ts <checkpointUrl> <storeUrl> <modelBaseUrl> <executor>\n");
  process.exit(2);
}
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const [concurrency, maxQueued, resumedHeadroom, alone, fastPath, admission, pause] = (scheduling ?? "").split("/");
const scheduler = scheduling
  ? createTurnScheduler({
      concurrency: Number(concurrency),
      maxQueued: Number(maxQueued),
      resumedHeadroom: Number(resumedHeadroom),
      resumedAlone: alone === "alone",
      admission: admission === "refuse" ? "refuse" : "queue",
      pauseForResumed: pause === "pause",
    })
  : undefined;
/**
 * The takeover fast path: resumed turns write their checkpoint once, when they end (LangGraph's `durability:
 * "exit"`), and they and a resumed thread's lease take PostgreSQL connections first (3 of the pool's 10 kept for them).
 */
const fast = fastPath === "fast";
const tracer = turnTracer();

const storeTarget = new URL(storeUrl);
const storeSchema = storeTarget.searchParams.get("schema") ?? "public";
storeTarget.searchParams.delete("schema");
const store = guardPostgresPool(PostgresStore.fromConnString(storeTarget.toString(), { schema: storeSchema }));
// Opened first: a worker restarted while PostgreSQL restarts waits here for the server (startupRetryMs, bounded).
const saver = withPruning(
  await createCheckpointer(checkpointUrl, { startupRetryMs: 45_000, reservedConnections: fast ? 3 : 0 }),
  {
    keepLast: 10,
    onWrite: { every: 4 },
  },
);
/**
 * A worker restarted while PostgreSQL itself restarts (57P03 "the database system is shutting down", refused
 * connections) retries opening the skill store for a bounded time, as a process supervisor would (createCheckpointer
 * does the same for the checkpoint database by itself: its `startupRetryMs`).
 */
async function untilDatabaseUp<T>(start: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    try {
      return await start();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
const backend = saverBackend(saver);
/** Checkpoint queries waiting for one of the pool's connections (pg's default pool has 10). */
const poolWaiting = () => (backend.kind === "postgres" ? backend.pool.waitingCount : 0);
if (backend.kind === "postgres") tracer.timedPool(backend.pool);
const registry = await untilDatabaseUp(() =>
  createSkillRegistry({ sources: [skillsFromStore(store)], watch: { pollMs: 300 } }),
);
const hook = createShellHook({ skills: registry, executor: executor as "bubblewrap" | "local" });
const middleware = createSkillsMiddleware({ skills: registry, hooks: [hook] });
const model = new ChatOpenAI({
  model: "scripted",
  apiKey: "test",
  configuration: { baseURL: modelBaseUrl },
  maxRetries: 2,
});

interface Served {
  lease: SessionLease;
  agent: ReturnType<typeof createAgent>;
  /** Taken over from a holder that had not released it, and not answered since: its turns go first. */
  resuming: boolean;
  /** Milliseconds waiting for the lease (SessionBusyError retries included). */
  leaseMs: number;
}
const served = new Map<string, Promise<Served>>();

async function take(threadId: string, urgent: boolean): Promise<Served> {
  const startedAt = Date.now();
  const deadline = startedAt + 120_000;
  for (;;) {
    try {
      const acquire = () => acquireSessionLease(saver, threadId, { ttlMs: 10_000 });
      const lease = await (urgent ? runWithPriority(acquire) : acquire());
      const agent = createAgent({
        model,
        tools: [],
        systemPrompt: "You serve one thread of a fleet.",
        middleware: [middleware],
        checkpointer: tracer.timed(lease.protect(saver)),
      });
      return { lease, agent, resuming: lease.tookOver, leaseMs: Date.now() - startedAt };
    } catch (error) {
      if (!SessionBusyError.isInstance(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function serve(threadId: string, urgent: boolean): Promise<Served> {
  let entry = served.get(threadId);
  if (!entry) {
    entry = take(threadId, urgent);
    entry.catch(() => served.delete(threadId));
    served.set(threadId, entry);
  }
  return entry;
}

async function turn(threadId: string, id: string, marked: boolean): Promise<void> {
  const startedAt = Date.now();
  try {
    const entry = await serve(threadId, marked && fast);
    const leaseMs = entry.leaseMs;
    entry.leaseMs = 0; // counted once, on the turn that acquired it
    const tookOver = entry.resuming;
    const priority: TurnPriority = tookOver || marked ? "resumed" : "normal";
    const queuedAt = Date.now();
    let runAt = queuedAt;
    // Keyed by the client's message id: a retry of a turn whose answer is stored returns it, one that stopped
    // part-way continues; nothing is written twice.
    const run = () => {
      runAt = Date.now();
      tracer.started(threadId);
      return tracer.within(threadId, () =>
        runTurnOnce(
          entry.agent as unknown as TurnGraph,
          { messages: [new HumanMessage({ id, content: `turn ${id}` })] },
          {
            configurable: { thread_id: threadId },
            callbacks: tracer.callbacks(threadId),
            // A resumed turn writes its checkpoint once, when it ends, instead of after every step: fewer round trips
            // on the takeover path (killed again part-way, it runs again from the last checkpoint stored).
            ...(priority === "resumed" && fast ? { durability: "exit" as const } : {}),
          },
        ),
      );
    };
    const result = await (scheduler ? scheduler.run(run, { priority }) : run());
    const reply = result.status.state === "answered" ? String(result.status.reply.content) : "";
    const ok = reply.startsWith(`answer ${id}`);
    if (ok) entry.resuming = false;
    const timing = {
      leaseMs,
      queuedMs: runAt - queuedAt,
      runMs: Date.now() - runAt,
      ...tracer.take(threadId),
      poolWaiting: poolWaiting(),
    };
    print({
      thread: threadId,
      id,
      ok,
      reply,
      outcome: result.outcome,
      tookOver,
      priority,
      startedAt,
      at: Date.now(),
      timing,
    });
  } catch (error) {
    if (SessionLeaseLostError.isInstance(error)) served.delete(threadId);
    const { code, message, retryAfterMs } = error as { code?: string; message?: string; retryAfterMs?: number };
    const refused = { thread: threadId, id, ok: false, code, retryAfterMs, startedAt, at: Date.now() };
    print({ ...refused, message: String(message).slice(0, 500) });
  }
}

print({ ready: true, pid: process.pid });
for await (const line of createInterface({ input: process.stdin })) {
  const [command, first, second, third] = line.trim().split(/\s+/);
  if (command === "turn" && first && second) void turn(first, second, third === "resumed");
  else if (command === "skill") print({ skill: registry.get("fleet-skill")?.description ?? null });
  else if (command === "release") {
    const entries = await Promise.allSettled(served.values());
    served.clear();
    await Promise.all(entries.map((entry) => (entry.status === "fulfilled" ? entry.value.lease.release() : undefined)));
    print({ released: entries.length });
  } else if (command === "exit") break;
}
await registry.close();
await hook.dispose();
await closeCheckpointer(saver);
await store.stop();
print({ exited: true });
process.exit(0);
