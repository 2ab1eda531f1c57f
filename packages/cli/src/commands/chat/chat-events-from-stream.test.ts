import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import type { ChatEvent } from "./chat-event.js";
import { chatEventsFromStream, createChatStreamContext, seedChatStreamContext } from "./chat-events-from-stream.js";

const weather = tool(async ({ city }) => `Sunny in ${city}\n21 C`, {
  name: "get_weather",
  description: "Weather of a city",
  schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
});

describe("chatEventsFromStream", () => {
  it("turns a real createAgent stream into tool call, tool result and token events in order", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "get_weather", args: { city: "Oslo" }, id: "call_1" }])
      .respond(new AIMessage("It is sunny."));
    const agent = createAgent({ model, tools: [weather] });
    const events: ChatEvent[] = [];
    const context = createChatStreamContext();
    const stream = await agent.stream(
      { messages: [{ role: "user", content: "weather in Oslo?" }] },
      { streamMode: ["messages", "custom", "updates"] },
    );
    for await (const [mode, chunk] of stream as AsyncIterable<["messages" | "custom" | "updates", unknown]>)
      events.push(...chatEventsFromStream(mode, chunk, context));
    // fakeModel puts the prompt text in the content of its tool-calling message, so that message streams tokens too.
    expect(events).toEqual([
      { type: "token", text: "weather in Oslo?" },
      { type: "tool-call", id: "call_1", name: "get_weather", args: { city: "Oslo" } },
      { type: "tool-result", id: "call_1", name: "get_weather", content: "Sunny in Oslo\n21 C", isError: false },
      { type: "token", text: "It is sunny." },
    ]);
  });

  it("passes skill events from the custom stream and ignores other custom chunks", () => {
    const context = createChatStreamContext();
    expect(
      chatEventsFromStream(
        "custom",
        { skillgraph: { type: "skill-loaded", skill: "sql-review", agentId: "default" } },
        context,
      ),
    ).toEqual([{ type: "skill", event: { type: "skill-loaded", skill: "sql-review", agentId: "default" } }]);
    expect(chatEventsFromStream("custom", { progress: 0.5 }, context)).toEqual([]);
  });

  it("names a tool result from the earlier call when the message has no name", () => {
    const context = createChatStreamContext();
    context.toolNames.set("call_9", "read_skill");
    const events = chatEventsFromStream(
      "updates",
      { tools: { messages: [{ type: "tool", tool_call_id: "call_9", content: [{ type: "text", text: "body" }] }] } },
      context,
    );
    expect(events).toEqual([
      { type: "tool-result", id: "call_9", name: "read_skill", content: "body", isError: false },
    ]);
  });

  it("reports each tool call and result once although middleware nodes echo the whole message list, and never the seeded history", () => {
    const context = createChatStreamContext();
    const old = [
      { type: "ai", content: "", tool_calls: [{ id: "old", name: "read_skill", args: { name: "a" } }] },
      { type: "tool", tool_call_id: "old", content: "x" },
    ];
    seedChatStreamContext(context, old);
    const call = {
      type: "ai",
      content: "",
      tool_calls: [{ id: "new", name: "search_skills", args: { query: "sql" } }],
    };
    const first = chatEventsFromStream("updates", { model_request: { messages: [call] } }, context);
    const echo = chatEventsFromStream(
      "updates",
      { "SkillsMiddleware.after_model": { messages: [...old, call] } },
      context,
    );
    expect(first).toEqual([{ type: "tool-call", id: "new", name: "search_skills", args: { query: "sql" } }]);
    expect(echo).toEqual([]);
  });
});
