// A turn retried after the process died at any write of it (before the write reached the store, or after it was
// stored but before the caller heard back) leaves the same history as a turn that never failed: runTurnOnce returns
// the stored answer or continues the stopped run; nothing is written twice. Every write point, both faults, both
// agent shapes, on MemorySaver, SQLite and PostgreSQL.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { Annotation, END, MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { toolsCondition } from "@langchain/langgraph/prebuilt";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { closeCheckpointer, createCheckpointer, runTurnOnce } from "../packages/checkpoint/src/index.js";
import { createSkillRegistry, skillsFromDirectory, type SkillRegistry } from "../packages/core/src/index.js";
import { createSkillsInterceptor, createSkillsMiddleware } from "../packages/langgraph/src/index.js";
import { faultySaver, type WriteFault } from "./support/faulty-saver.js";
import { REPO_ROOT } from "./support/shared-paths.js";

/** A model whose reply depends only on the request (a retry gets the same reply), with the worst endpoints' ids. */
class RequestKeyedModel extends BaseChatModel {
  _llmType() {
    return "request-keyed";
  }
  override bindTools() {
    return this as never;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const last = messages.at(-1)!;
    const human = messages.filter((message) => message.getType() === "human").at(-1)!;
    const message =
      last.getType() === "human"
        ? new AIMessage({
            id: "chatcmpl-1",
            content: "",
            tool_calls: [{ id: "call_0", name: "read_skill", args: { name: "release-notes" }, type: "tool_call" }],
          })
        : new AIMessage({ id: "chatcmpl-1", content: `answer to ${String(human.content)}` });
    return { generations: [{ message, text: String(message.content) }] };
  }
}

type Shape = "interceptor" | "middleware";
let registry: SkillRegistry;
let folder: string;
beforeAll(async () => {
  registry = await createSkillRegistry({ sources: [skillsFromDirectory(`${REPO_ROOT}/examples/skills`)] });
  folder = await mkdtemp(join(tmpdir(), "turn-once-"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

function build(shape: Shape, checkpointer: BaseCheckpointSaver) {
  const model = new RequestKeyedModel({});
  if (shape === "middleware")
    return createAgent({
      model,
      tools: [],
      middleware: [createSkillsMiddleware({ skills: registry })],
      checkpointer,
    }) as never;
  const skills = createSkillsInterceptor({ skills: registry });
  const State = Annotation.Root({ ...MessagesAnnotation.spec, ...skills.stateSpec });
  return new StateGraph(State)
    .addNode("agent", skills.callModel(model))
    .addNode("tools", skills.toolNode())
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "agent")
    .compile({ checkpointer }) as never;
}

/** The history as the model would read it: types, text and calls (ids are the runtime's own, so not compared). */
async function history(shape: Shape, saver: BaseCheckpointSaver, threadId: string) {
  const graph = build(shape, saver) as { getState(config: unknown): Promise<{ values: { messages: BaseMessage[] } }> };
  const { messages } = (await graph.getState({ configurable: { thread_id: threadId } })).values;
  return messages.map((message) => ({
    type: message.getType(),
    content: message.getType() === "tool" ? String(message.content).slice(0, 40) : message.content,
    calls: ((message as AIMessage).tool_calls ?? []).map((call) => call.name),
  }));
}

/** Two turns; the second keyed by `turn-2`. */
async function twoTurns(shape: Shape, saver: BaseCheckpointSaver, threadId: string) {
  const config = { configurable: { thread_id: threadId } };
  await runTurnOnce(build(shape, saver), { messages: [new HumanMessage({ id: "turn-1", content: "first" })] }, config);
  return runTurnOnce(
    build(shape, saver),
    { messages: [new HumanMessage({ id: "turn-2", content: "second" })] },
    config,
  );
}

const postgresUrl = inject("postgresUrl");
const savers: Array<{
  name: string;
  open: () => Promise<BaseCheckpointSaver>;
  close: (saver: BaseCheckpointSaver) => Promise<void>;
  skip?: string;
}> = [
  { name: "MemorySaver", open: async () => new MemorySaver(), close: async () => undefined },
  {
    name: "SQLite",
    open: () => createCheckpointer(`sqlite:${join(folder, `${randomBytes(4).toString("hex")}.db`)}`),
    close: closeCheckpointer,
  },
  {
    name: "PostgreSQL",
    open: () => createCheckpointer(`${postgresUrl}?schema=once_${randomBytes(4).toString("hex")}`),
    close: closeCheckpointer,
    ...(postgresUrl ? {} : { skip: `no PostgreSQL server: ${inject("postgresUnavailable")}` }),
  },
];

describe.each(savers)("a turn retried after a crash at any write ($name)", (backend) => {
  // The retry runs with LangGraph's default durability, or with "exit" (one write when the run ends), as a fleet
  // worker runs a taken-over thread's first turn.
  const cases = (["interceptor", "middleware"] as const).flatMap((shape) =>
    (["async", "exit"] as const).map((durability) => ({ shape, durability })),
  );
  it.skipIf(backend.skip !== undefined).each(cases)(
    "$shape, retried with durability $durability",
    async ({ shape, durability }) => {
      const saver = await backend.open();
      try {
        // the run without a fault, counting the second turn's writes
        const counting = faultySaver(saver, Number.MAX_SAFE_INTEGER, "before");
        const config = { configurable: { thread_id: "clean" } };
        await runTurnOnce(
          build(shape, saver),
          { messages: [new HumanMessage({ id: "turn-1", content: "first" })] },
          config,
        );
        const clean = await runTurnOnce(
          build(shape, counting.saver),
          { messages: [new HumanMessage({ id: "turn-2", content: "second" })] },
          config,
        );
        expect(clean.outcome).toBe("ran");
        const expected = await history(shape, saver, "clean");
        const writes = counting.state.writes;
        expect(writes).toBeGreaterThan(3);
        let crashed = 0;
        for (let failAt = 0; failAt < writes; failAt++)
          for (const fault of ["before", "after"] as WriteFault[]) {
            const threadId = `t-${failAt}-${fault}`;
            const threadConfig = { configurable: { thread_id: threadId } };
            await runTurnOnce(
              build(shape, saver),
              { messages: [new HumanMessage({ id: "turn-1", content: "first" })] },
              threadConfig,
            );
            const faulty = faultySaver(saver, failAt, fault);
            const input = { messages: [new HumanMessage({ id: "turn-2", content: "second" })] };
            const failed = await runTurnOnce(build(shape, faulty.saver), input, threadConfig).then(
              () => false,
              () => true,
            );
            if (failed) crashed++;
            // the client retries the same turn in a new process
            const retryConfig = { ...threadConfig, durability }; // LangGraph's config field
            const retried = await runTurnOnce(build(shape, saver), input, retryConfig);
            expect(retried.status.state, `${fault} write ${failAt}`).toBe("answered");
            expect(await history(shape, saver, threadId), `${fault} write ${failAt}`).toEqual(expected);
            // and once more: answered, nothing runs
            expect((await runTurnOnce(build(shape, saver), input, threadConfig)).outcome).toBe("stored");
          }
        // every write point was reached by a crash (a fault LangGraph swallowed would hide a write point)
        expect(crashed).toBe(writes * 2);
      } finally {
        await backend.close(saver);
      }
    },
  );
});
