import { fileURLToPath } from "node:url";
import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MemorySaver } from "@langchain/langgraph";
import { createSkillRegistry, skillsFromDirectory } from "@skillgraph/core";
import { describe, expect, it } from "vitest";
import type { ChatEvent } from "./chat-event.js";
import { createChatAgent } from "./create-chat-agent.js";

const skills = await createSkillRegistry({
  sources: [skillsFromDirectory(fileURLToPath(new URL("../../../../../examples/skills", import.meta.url)))],
});

async function collect(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe("createChatAgent", () => {
  it("resumes a thread from the given checkpointer without replaying its old tool calls as news", async () => {
    const checkpointer = new MemorySaver();
    const firstModel = fakeModel()
      .respondWithTools([{ name: "read_skill", args: { name: "sql-review" }, id: "call_old" }])
      .respond(new AIMessage("Reviewed."));
    const first = createChatAgent({ model: firstModel, skills, checkpointer, threadId: "session-a" });
    const firstEvents = await collect(first.turn("review this"));
    expect(
      firstEvents.filter((event) => event.type === "tool-call").map((event) => event.type === "tool-call" && event.id),
    ).toEqual(["call_old"]);

    const secondModel = fakeModel().respond(new AIMessage("You asked for a review."));
    const second = createChatAgent({ model: secondModel, skills, checkpointer, threadId: "session-a" });
    const secondEvents = await collect(second.turn("what did I ask?"));
    expect(secondEvents).toEqual([{ type: "token", text: "You asked for a review." }]);
    // The resumed agent's model saw the earlier conversation.
    const seen = secondModel.calls[0]!.messages.map((message) => message.getType());
    expect(seen).toEqual(["system", "human", "ai", "tool", "ai", "human"]);
  });

  it("gives each agent without a threadId its own fresh thread", async () => {
    const model = () => fakeModel().respond(new AIMessage("hi"));
    const a = createChatAgent({ model: model(), skills });
    const b = createChatAgent({ model: model(), skills });
    expect(a.threadId).not.toBe(b.threadId);
    expect(a.threadId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("repairs a tool call cut off by Ctrl-C with a cancelled ToolMessage, so the next turn is valid for the model", async () => {
    const checkpointer = new MemorySaver();
    const model = fakeModel()
      .respondWithTools([{ name: "read_skill", args: { name: "sql-review" }, id: "call_cut" }])
      .respond(new AIMessage("Picked up again."));
    const chat = createChatAgent({ model, skills, checkpointer, threadId: "cut" });
    // Stop the run before the tool node (as an abort between the model and the tools leaves it).
    const controller = new AbortController();
    const events = chat.turn("review this", { signal: controller.signal });
    await expect(async () => {
      for await (const event of events) if (event.type === "tool-call") controller.abort();
    }).rejects.toThrow(/abort/i);
    const state = await chat.agent.getState({ configurable: { thread_id: "cut" } });
    expect(state.next).toEqual(["tools"]);
    expect(await chat.repairCancelledToolCalls()).toBe(1);
    expect(await chat.repairCancelledToolCalls()).toBe(0);
    await collect(chat.turn("go on"));
    const seen = model.calls[1]!.messages;
    expect(seen.map((message) => message.getType())).toEqual(["system", "human", "ai", "tool", "human"]);
    expect(String(seen[3]!.content)).toContain("Tool call 'read_skill' was cancelled");
  });

  it("$skill invocation: read_skill runs before the model, whose first call already holds the skill", async () => {
    const model = fakeModel().respond(new AIMessage("Done with the skill."));
    const chat = createChatAgent({ model, skills, checkpointer: new MemorySaver() });
    const events = await collect(chat.turn({ text: "$sql-review check this", invokeSkill: "sql-review" }));
    expect(
      events.some(
        (event) => event.type === "skill" && event.event.type === "skill-loaded" && event.event.skill === "sql-review",
      ),
    ).toBe(true);
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]!.messages.map((message) => message.getType())).toEqual(["system", "human", "ai", "tool"]);
  });
});
