import { describe, expect, it } from "vitest";
import { buildSessionGraph, userTurn } from "../__fixtures__/session-graph.js";
import { createCheckpointer } from "../create-checkpointer/create-checkpointer.js";
import { inspectSession } from "./inspect-session.js";

describe("inspectSession", () => {
  it("says a thread without checkpoints does not exist", async () => {
    const session = await inspectSession(await createCheckpointer("memory:"), "nobody");
    expect(session).toMatchObject({ exists: false, messages: [], loadedSkills: [], drift: [] });
  });

  it("reads messages, tool calls, loaded skills and the last step of a full-history session", async () => {
    const saver = await createCheckpointer("memory:");
    const graph = buildSessionGraph({
      checkpointer: saver,
      messages: "full",
      script: [{ calls: [{ name: "load_skill", args: { name: "pdf" } }] }, { say: "ok" }],
      lookup: () => ({ hash: "h1" }),
    });
    await graph.invoke(userTurn("hi", "u1"), { configurable: { thread_id: "s" } });
    const session = await inspectSession(saver, "s", { get: () => ({ hash: "h1" }) as never });
    expect(session.messages.map((m) => m.type)).toEqual(["human", "ai", "tool", "ai"]);
    expect(session.messages[1]?.toolCalls).toEqual(["load_skill"]);
    expect(session.loadedSkills).toMatchObject([{ name: "pdf", hash: "h1", mode: "session", agentId: "" }]);
    expect(session.drift).toEqual([]);
    expect(session.lastStep).toBe(3);
  });

  it("reads the interceptor's per-agent skills channel", async () => {
    const saver = await createCheckpointer("memory:");
    const loaded = { pdf: { name: "pdf", mode: "turn", loadedSeq: 1, lastUsedSeq: 1, hash: "old", docs: [] } };
    const checkpoint = {
      v: 4,
      id: "1f000000-0000-6000-8000-000000000001",
      ts: new Date().toISOString(),
      channel_values: { skillgraph: { main: { load: { seq: 1, loaded }, disabled: [] } } },
      channel_versions: { skillgraph: 1 },
      versions_seen: {},
    };
    await saver.put(
      { configurable: { thread_id: "agents", checkpoint_ns: "" } },
      checkpoint,
      { source: "input", step: 0, parents: {} },
      { skillgraph: 1 },
    );
    const session = await inspectSession(saver, "agents", { get: () => undefined });
    expect(session.loadedSkills.map((s) => [s.agentId, s.name])).toEqual([["main", "pdf"]]);
    expect(session.drift).toMatchObject([{ agentId: "main", name: "pdf", kind: "removed" }]);
  });
});
