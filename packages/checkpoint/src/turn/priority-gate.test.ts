import { HumanMessage } from "@langchain/core/messages";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { MessagesAnnotation, StateGraph } from "@langchain/langgraph";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { createPriorityGate } from "./priority-gate.js";
import { runTurnOnce, type TurnOnceResult } from "./run-turn-once.js";
import type { TurnGraph } from "./turn-status.js";
import { createTurnScheduler, type TurnPriority, type TurnScheduler } from "./turn-scheduler.js";

/**
 * A real graph whose one node waits for the test to let its thread go on, then calls a chat model (a step boundary)
 * and answers; `log` records, per thread, when it went on and when its model call returned.
 */
function heldGraph() {
  const log: string[] = [];
  const entered = new Set<string>();
  const held = new Map<string, () => void>();
  const holding = new Map<string, Promise<void>>();
  const hold = (thread: string) => holding.set(thread, new Promise<void>((resolve) => held.set(thread, resolve)));
  const model = new FakeListChatModel({ responses: ["answer"] });
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("reply", async (state, config) => {
      const thread = String(config.configurable?.thread_id);
      entered.add(thread);
      await holding.get(thread);
      log.push(`${thread} went on`);
      const answer = await model.invoke(state.messages, config);
      log.push(`${thread} model answered`);
      return { messages: [answer] };
    })
    .addEdge("__start__", "reply")
    .compile({ checkpointer: new MemorySaver() }) as unknown as TurnGraph;
  const release = (thread: string) => held.get(thread)!();
  return { graph, log, entered, hold, release };
}

/** How long {@link until} waits for what it waits for. */
const UNTIL_MS = 20_000;

/** Waits (macrotasks) until `done()`; fails naming `what` if it was not seen within UNTIL_MS. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + UNTIL_MS;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
  if (!done()) throw new Error(`${what}: not seen within ${UNTIL_MS} ms`);
}

function submit(
  scheduler: TurnScheduler,
  graph: TurnGraph,
  thread: string,
  priority: TurnPriority,
): Promise<TurnOnceResult> {
  const input = { messages: [new HumanMessage({ id: `${thread}-0`, content: `turn ${thread}` })] };
  return scheduler.run(() => runTurnOnce(graph, input, { configurable: { thread_id: thread } }), { priority });
}

describe("createPriorityGate", () => {
  it("is open until a priority turn enters, closed until the last one leaves (leaving twice counts once)", async () => {
    const gate = createPriorityGate();
    await gate.pass();
    const leaveFirst = gate.enter();
    const leaveSecond = gate.enter();
    let passed = false;
    void gate.pass().then(() => (passed = true));
    leaveFirst();
    leaveFirst();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect([passed, gate.inFlight, gate.waiting]).toEqual([false, 1, 1]);
    leaveSecond();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect([passed, gate.inFlight, gate.waiting]).toEqual([true, 0, 0]);
  });
});

describe("pauseForResumed", () => {
  it("holds running normal turns at their next step boundary while a resumed turn runs; they all answer after", async () => {
    const scheduler = createTurnScheduler({ concurrency: 2, resumedHeadroom: 1, pauseForResumed: true });
    const { graph, log, entered, hold, release } = heldGraph();
    for (const thread of ["fresh-a", "fresh-b", "taken-over"]) hold(thread);
    const fresh = ["fresh-a", "fresh-b"].map((thread) => submit(scheduler, graph, thread, "normal"));
    await until(() => entered.size === 2, "both fresh turns inside their node"); // held there by the test
    const resumed = submit(scheduler, graph, "taken-over", "resumed");
    await until(() => entered.has("taken-over"), "the resumed turn inside its node");

    // The fresh turns go on inside their node: their model calls are step boundaries, held while the resumed turn runs.
    release("fresh-a");
    release("fresh-b");
    await until(() => scheduler.paused >= 2, "both fresh turns waiting at a step boundary");
    expect(log).toEqual(["fresh-a went on", "fresh-b went on"]);

    release("taken-over");
    expect((await resumed).status.state).toBe("answered");
    const results = await Promise.all(fresh);
    expect(results.map((result) => [result.outcome, result.status.state])).toEqual([
      ["ran", "answered"],
      ["ran", "answered"],
    ]);
    expect(log.slice(0, 4)).toEqual([
      "fresh-a went on",
      "fresh-b went on",
      "taken-over went on",
      "taken-over model answered",
    ]);
    expect(log.slice(4).sort()).toEqual(["fresh-a model answered", "fresh-b model answered"]);
    expect([scheduler.running, scheduler.paused]).toEqual([0, 0]);
  }, 90_000);

  it("without it (the default) a normal turn's steps go on while a resumed turn runs", async () => {
    const scheduler = createTurnScheduler({ concurrency: 2, resumedHeadroom: 1 });
    const { graph, log, hold, release } = heldGraph();
    hold("taken-over");
    const resumed = submit(scheduler, graph, "taken-over", "resumed");
    await until(() => scheduler.running === 1, "the resumed turn running");
    const result = await submit(scheduler, graph, "fresh", "normal");
    expect(result.status.state).toBe("answered");
    expect(log).toEqual(["fresh went on", "fresh model answered"]);
    release("taken-over");
    await resumed;
  }, 90_000);
});
