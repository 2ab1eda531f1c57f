import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { createAgent, createMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { DelegatingCheckpointSaver, type SaverConfig } from "../saver/delegating-checkpoint-saver.js";
import { ReadOnceSaver } from "./read-once-saver.js";
import { runTurnOnce } from "./run-turn-once.js";
import type { TurnGraph } from "./turn-status.js";

/** A MemorySaver that logs each call: `read` (latest checkpoint), `read-id` (one by id), `write`. */
class LoggingSaver extends DelegatingCheckpointSaver {
  readonly log: string[] = [];
  constructor(inner = new MemorySaver()) {
    super(inner);
  }
  override getTuple(config: SaverConfig) {
    this.log.push(config.configurable?.checkpoint_id === undefined ? "read" : "read-id");
    return super.getTuple(config);
  }
  override put(...args: Parameters<DelegatingCheckpointSaver["put"]>) {
    this.log.push("write");
    return super.put(...args);
  }
  override putWrites(...args: Parameters<DelegatingCheckpointSaver["putWrites"]>) {
    this.log.push("write");
    return super.putWrites(...args);
  }
}

/** Stores every write, and throws after storing write number `crashAfter` (counting from 0): a process dying there. */
class CrashingSaver extends LoggingSaver {
  constructor(
    inner: MemorySaver,
    private readonly crashAfter: number,
  ) {
    super(inner);
  }
  private async crash<T>(stored: T): Promise<T> {
    const written = this.log.filter((op) => op === "write").length;
    if (written - 1 === this.crashAfter) throw new Error(`crash after write ${this.crashAfter}`);
    return stored;
  }
  override async put(...args: Parameters<DelegatingCheckpointSaver["put"]>) {
    return this.crash(await super.put(...args));
  }
  override async putWrites(...args: Parameters<DelegatingCheckpointSaver["putWrites"]>) {
    return this.crash(await super.putWrites(...args));
  }
}

/** createAgent with a middleware that has state (so createAgent looks the thread's state up before each run). */
function agentOn(saver: LoggingSaver) {
  const counter = createMiddleware({ name: "noop" });
  const model = fakeModel().respond(new AIMessage("one")).respond(new AIMessage("two"));
  return createAgent({ model, tools: [], middleware: [counter], checkpointer: saver }) as unknown as TurnGraph;
}
const readsBeforeFirstWrite = (log: string[]) => log.slice(0, log.indexOf("write")).filter((op) => op === "read");
const config = { configurable: { thread_id: "t1" } };
const turn = (id: string) => ({ messages: [new HumanMessage({ id, content: id })] });

describe("runTurnOnce reads the thread's latest checkpoint once", () => {
  it("a turn on a thread with history: one read before the run writes, where the status lookup and the run each read", async () => {
    const saver = new LoggingSaver();
    const agent = agentOn(saver);
    await runTurnOnce(agent, turn("m1"), config);
    saver.log.length = 0;
    const second = await runTurnOnce(agent, turn("m2"), config);
    expect(second.outcome).toBe("ran");
    expect(second.status.state === "answered" && second.status.reply.content).toBe("two");
    expect(readsBeforeFirstWrite(saver.log)).toEqual(["read"]);

    // The same turns without runTurnOnce's shared read: the status lookup, createAgent's state lookup and the run
    // each read (what the shared read saves; if LangGraph stops reading more than once, this fails and says so).
    const plain = new LoggingSaver();
    const other = agentOn(plain);
    await other.invoke(turn("m1"), config);
    plain.log.length = 0;
    await other.getState(config);
    await other.invoke(turn("m2"), config);
    expect(readsBeforeFirstWrite(plain.log)).toEqual(["read", "read", "read"]);
  });

  it("a run that stopped part-way continues from the shared read and answers (LangGraph changes what it loads)", async () => {
    // The status lookup applies the stored pending writes to the checkpoint it read; were the run handed that same
    // object, it would find the writes already seen and end at once without an answer.
    const outcomes: string[] = [];
    for (let crashAfter = 0; crashAfter < 4; crashAfter += 1) {
      const memory = new MemorySaver();
      const thread = { configurable: { thread_id: `t-${crashAfter}` } };
      await runTurnOnce(agentOn(new LoggingSaver(memory)), turn("m1"), thread);
      const crashed = await runTurnOnce(agentOn(new CrashingSaver(memory, crashAfter)), turn("m2"), thread).then(
        () => false,
        () => true,
      );
      const retry = await runTurnOnce(agentOn(new LoggingSaver(memory)), turn("m2"), thread);
      expect([crashAfter, crashed, retry.status.state]).toEqual([crashAfter, true, "answered"]);
      outcomes.push(retry.outcome);
    }
    expect(outcomes).toContain("continued");
  });

  it("a retry of an answered turn reads once and writes nothing", async () => {
    const saver = new LoggingSaver();
    const agent = agentOn(saver);
    await runTurnOnce(agent, turn("m1"), config);
    saver.log.length = 0;
    const retry = await runTurnOnce(agent, turn("m1"), config);
    expect(retry.outcome).toBe("stored");
    expect(saver.log).toEqual(["read"]);
  });

  it("a read after a write to the thread goes to the database again; other threads and reads by id are not shared", async () => {
    const saver = new LoggingSaver();
    await agentOn(saver).invoke(turn("m1"), config);
    const once = new ReadOnceSaver(saver);
    saver.log.length = 0;
    const first = await once.getTuple(config);
    await once.getTuple({ configurable: { thread_id: "t1", checkpoint_ns: "" } }); // the same read
    await once.getTuple({ configurable: { thread_id: "t2" } });
    await once.getTuple({ configurable: { thread_id: "t1", checkpoint_id: first!.checkpoint.id } });
    expect(saver.log).toEqual(["read", "read", "read-id"]);
    await once.putWrites(first!.config, [["messages", []]], "task-1");
    const after = await once.getTuple(config);
    expect(saver.log).toEqual(["read", "read", "read-id", "write", "read"]);
    expect(after!.pendingWrites).toHaveLength(1); // the write is seen
    expect(once.databaseReads).toBe(4);
  });
});
