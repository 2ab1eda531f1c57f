// Admission control on a process saturated with fresh turns (PostgreSQL, real leases, a real graph calling the model
// over HTTP): with `admission: "refuse"` a thread taken over from a SIGKILLed holder is admitted and starts before
// every fresh turn, fresh turns past `concurrency` are refused with a typed, retryable TurnsBusyError that wrote
// nothing, and their retries (same message ids) are answered once each. With `pauseForResumed` the fresh turns in
// flight wait at their next step boundary while the taken-over thread's turn runs, and all answer once after it.
// Order and admission are asserted, not times.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { MessagesAnnotation, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { ChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  acquireSessionLease,
  closeCheckpointer,
  createCheckpointer,
  createTurnScheduler,
  runTurnOnce,
  type SessionLease,
  type TurnGraph,
  TurnsBusyError,
  turnStatus,
} from "../packages/checkpoint/src/index.js";
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from "./support/openai-compatible-server.js";

const postgresUrl = inject("postgresUrl");
const work = mkdtempSync(join(tmpdir(), "sg-admission-"));
let server: OpenAICompatibleServer;
/** Model calls held until the test lets them answer, by the turn's message id. */
const held = new Map<string, () => void>();
const heldNow = new Map<string, Promise<void>>();
const hold = (id: string) => heldNow.set(id, new Promise<void>((resolve) => held.set(id, resolve)));
/** Turns whose model call reached the server. */
const reached = new Set<string>();

beforeAll(async () => {
  server = await startOpenAICompatibleServer({
    loop: true,
    script: [
      async (request) => {
        const last = request.messages.at(-1);
        const text = typeof last?.content === "string" ? last.content : "";
        const id = /^turn (\S+)/.exec(text)?.[1] ?? "?";
        reached.add(id);
        await heldNow.get(id);
        return `answer ${id}`;
      },
    ],
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A one-node graph calling the model over HTTP, checkpointed through the thread's lease. */
function graphOn(checkpointer: BaseCheckpointSaver): TurnGraph {
  const model = new ChatOpenAI({
    model: "scripted",
    apiKey: "test",
    configuration: { baseURL: server.url },
    maxRetries: 0,
  });
  return new StateGraph(MessagesAnnotation)
    .addNode("reply", async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addEdge("__start__", "reply")
    .compile({ checkpointer }) as unknown as TurnGraph;
}
const input = (id: string) => ({ messages: [new HumanMessage({ id, content: `turn ${id}` })] });
const config = (threadId: string) => ({ configurable: { thread_id: threadId } });

/** Starts the lease child on `threadId` and resolves once it holds the lease (it then waits for a file never made). */
async function holderOf(url: string, threadId: string) {
  const ready = join(work, `${threadId}.ready`);
  const proc = spawn(
    process.execPath,
    [
      "--conditions=@skillgraph/source",
      "--import",
      "tsx",
      "test/support/checkpoint-lease-child.ts",
      ...[url, threadId, "1", "H", ready, join(work, `${threadId}.never`), "30000"],
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const exited = new Promise<void>((resolve) => proc.on("close", () => resolve()));
  const deadline = Date.now() + 60_000;
  while (!existsSync(ready)) {
    if (Date.now() > deadline) throw new Error(`the lease child never held ${threadId}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { kill: () => proc.kill("SIGKILL"), exited };
}

const texts = (messages: BaseMessage[]) =>
  messages.map((message) => `${message.getType()}: ${String(message.content)}`);

/** Thread `threadId` with one answered turn, then a holder that dies (SIGKILL) holding its lease. */
async function takenFromDeadHolder(saver: BaseCheckpointSaver, url: string, threadId: string): Promise<void> {
  const first = await acquireSessionLease(saver, threadId);
  await runTurnOnce(graphOn(first.protect(saver)), input(`${threadId}-0`), config(threadId));
  await first.release();
  const holder = await holderOf(url, threadId);
  holder.kill();
  await holder.exited;
}

/** The thread's messages as `type: text` lines. */
const history = async (saver: BaseCheckpointSaver, thread: string) =>
  texts(((await graphOn(saver).getState(config(thread))).values as { messages: BaseMessage[] }).messages);

describe.skipIf(!postgresUrl)('admission: "refuse" under a process saturated with fresh turns', () => {
  it("admits the taken-over thread first, refuses fresh turns past the limit with turns-busy, and loses none", async () => {
    const url = `${postgresUrl}?schema=admission_${randomBytes(4).toString("hex")}`;
    const saver = await createCheckpointer(url);
    const leases = new Map<string, SessionLease>();
    try {
      // The thread to take over: one answered turn, then a holder that dies holding its lease.
      const taken = "taken";
      await takenFromDeadHolder(saver, url, taken);

      const turns = createTurnScheduler({ concurrency: 2, admission: "refuse" });
      const started: string[] = [];
      const submit = async (threadId: string, id: string) => {
        const lease = await acquireSessionLease(saver, threadId);
        leases.set(threadId, lease);
        const priority = lease.tookOver ? "resumed" : "normal";
        const graph = graphOn(lease.protect(saver));
        return turns.run(
          () => {
            started.push(id);
            return runTurnOnce(graph, input(id), config(threadId));
          },
          { priority },
        );
      };
      const refusal = (promise: Promise<unknown>) =>
        promise.then(
          () => undefined,
          (error: unknown) => error,
        );

      // Two fresh turns fill the process (their model calls held).
      hold("f1-0");
      hold("f2-0");
      const f1 = submit("f1", "f1-0");
      const f2 = submit("f2", "f2-0");
      while (turns.running < 2) await new Promise((resolve) => setTimeout(resolve, 10));

      // A third fresh turn is refused at once: typed, retryable, with a hint; it did not run.
      const refused = await refusal(submit("f3", "f3-0"));
      expect(TurnsBusyError.isInstance(refused)).toBe(true);
      const busy = refused as TurnsBusyError;
      expect(busy.code).toBe("turns-busy");
      expect(busy.retryable).toBe(true);
      expect(busy.retryAfterMs).toBeGreaterThan(0);
      expect([busy.running, busy.queued]).toEqual([2, 0]);

      // The taken-over thread's turn is admitted though the process is full: it waits, first in line.
      const resumed = submit(taken, "taken-1");
      while (turns.queued < 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(leases.get(taken)!.tookOver).toBe(true);
      // Fresh turns that come after it are refused, not queued behind or ahead of it.
      expect(TurnsBusyError.isInstance(await refusal(submit("f4", "f4-0")))).toBe(true);
      expect(turns.queued).toBe(1);

      // The first slot to free goes to the taken-over thread.
      held.get("f1-0")!();
      expect((await f1).status.state).toBe("answered");
      expect((await resumed).outcome).toBe("ran");
      // f1 and f2 were submitted together (either may take its lease first); the taken-over turn came next
      expect([...started.slice(0, 2)].sort()).toEqual(["f1-0", "f2-0"]);
      expect(started.slice(2)).toEqual(["taken-1"]);

      // The refused turns left nothing; their retries, with the same message ids, are answered once each.
      for (const thread of ["f3", "f4"])
        expect((await turnStatus(graphOn(saver), config(thread), `${thread}-0`)).state).toBe("new");
      held.get("f2-0")!();
      await f2;
      for (const thread of ["f3", "f4"]) {
        const retry = await turns.run(() => runTurnOnce(graphOn(saver), input(`${thread}-0`), config(thread)));
        expect(retry.outcome).toBe("ran");
      }
      expect(await history(saver, taken)).toEqual([
        "human: turn taken-0",
        "ai: answer taken-0",
        "human: turn taken-1",
        "ai: answer taken-1",
      ]);
      for (const thread of ["f1", "f2", "f3", "f4"])
        expect(await history(saver, thread)).toEqual([`human: turn ${thread}-0`, `ai: answer ${thread}-0`]);
    } finally {
      for (const [, open] of held) open();
      await Promise.allSettled([...leases.values()].map((lease) => lease.release()));
      await closeCheckpointer(saver);
    }
  });

  it("with pauseForResumed, fresh turns in flight wait at their next step boundary while the taken-over one runs", async () => {
    const url = `${postgresUrl}?schema=admission_${randomBytes(4).toString("hex")}`;
    const saver = await createCheckpointer(url);
    const leases = new Map<string, SessionLease>();
    const settled: string[] = [];
    const submitted: Array<Promise<unknown>> = [];
    try {
      await takenFromDeadHolder(saver, url, "gtaken");
      const turns = createTurnScheduler({
        concurrency: 2,
        resumedHeadroom: 1,
        admission: "refuse",
        pauseForResumed: true,
      });
      const run = async (threadId: string, id: string) => {
        const lease = await acquireSessionLease(saver, threadId);
        leases.set(threadId, lease);
        const graph = graphOn(lease.protect(saver));
        const priority = lease.tookOver ? "resumed" : "normal";
        const result = await turns.run(() => runTurnOnce(graph, input(id), config(threadId)), { priority });
        settled.push(id);
        return result;
      };
      const submit = (threadId: string, id: string) => {
        const turn = run(threadId, id);
        submitted.push(turn);
        return turn;
      };

      // Two fresh turns fill the process, their model calls held; then the taken-over thread's turn starts beside
      // them (in the headroom), its model call held too.
      for (const id of ["g1-0", "g2-0", "gtaken-1"]) hold(id);
      const fresh = [submit("g1", "g1-0"), submit("g2", "g2-0")];
      const reaching = async (ids: string[]) => {
        while (!ids.every((id) => reached.has(id))) await new Promise((resolve) => setTimeout(resolve, 10));
      };
      await reaching(["g1-0", "g2-0"]);
      const resumed = submit("gtaken", "gtaken-1");
      await reaching(["gtaken-1"]);
      expect(turns.running).toBe(3);
      expect(leases.get("gtaken")!.tookOver).toBe(true);

      // The fresh model calls answer; the writes that would follow wait at the gate while the taken-over turn runs.
      held.get("g1-0")!();
      held.get("g2-0")!();
      const deadline = Date.now() + 60_000;
      while (turns.paused < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(turns.paused, "both fresh turns wait at a step boundary").toBeGreaterThanOrEqual(2);
      expect(settled).toEqual([]);
      for (const thread of ["g1", "g2"]) expect(await history(saver, thread)).not.toContain(`ai: answer ${thread}-0`); // not written yet

      held.get("gtaken-1")!();
      expect((await resumed).outcome).toBe("ran");
      for (const result of await Promise.all(fresh)) expect(result.status.state).toBe("answered");
      expect(settled[0]).toBe("gtaken-1");
      expect(turns.paused).toBe(0);
      expect(await history(saver, "gtaken")).toEqual([
        "human: turn gtaken-0",
        "ai: answer gtaken-0",
        "human: turn gtaken-1",
        "ai: answer gtaken-1",
      ]);
      for (const thread of ["g1", "g2"])
        expect(await history(saver, thread)).toEqual([`human: turn ${thread}-0`, `ai: answer ${thread}-0`]);
    } finally {
      for (const [, open] of held) open();
      await Promise.allSettled(submitted);
      await Promise.allSettled([...leases.values()].map((lease) => lease.release()));
      await closeCheckpointer(saver);
    }
  });
});
