import { AIMessage, HumanMessage, isAIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { cancelledToolMessageId, repairDanglingToolCalls } from "./repair-dangling-tool-calls.js";

const ai = (id: string, ...calls: string[]) =>
  new AIMessage({
    content: "",
    id,
    tool_calls: calls.map((call) => ({ name: "job", args: {}, id: call, type: "tool_call" as const })),
  });
const answer = (call: string) => new ToolMessage({ content: `answer ${call}`, tool_call_id: call });

describe("repairDanglingToolCalls", () => {
  it("returns the same array when every call is answered in place", () => {
    const history = [new HumanMessage("hi"), ai("a", "c1", "c2"), answer("c2"), answer("c1"), new AIMessage("done")];
    const repaired = repairDanglingToolCalls(history);
    expect(repaired.messages).toBe(history);
    expect(repaired.repairs).toEqual([]);
  });

  it("answers each unanswered call of a cancelled step right after its AI message", () => {
    const history = [new HumanMessage("hi"), ai("a", "c1", "c2"), answer("c1"), new HumanMessage("again")];
    const { messages, repairs } = repairDanglingToolCalls(history);
    expect(repairs.map((message) => message.tool_call_id)).toEqual(["c2"]);
    expect(repairs[0]!.id).toBe(cancelledToolMessageId("c2"));
    expect(repairs[0]!.status).toBe("error");
    expect(messages.map((message) => message.getType())).toEqual(["human", "ai", "tool", "tool", "human"]);
    expect(messages[3]!.text).toContain("cancelled");
  });

  it("moves an answer stored later (a persisted repair) next to its call, without adding another", () => {
    const history = [ai("a", "c1"), new HumanMessage("again"), answer("c1"), new AIMessage("ok")];
    const { messages, repairs } = repairDanglingToolCalls(history);
    expect(repairs).toEqual([]);
    expect(messages.map((message) => message.getType())).toEqual(["ai", "tool", "human", "ai"]);
  });

  it("repairs an AI message with tool calls at the very end", () => {
    const { messages, repairs } = repairDanglingToolCalls([new HumanMessage("hi"), ai("a", "c9")]);
    expect(repairs).toHaveLength(1);
    expect(messages.at(-1)!.getType()).toBe("tool");
  });

  it("on random histories: every call answered right after it, nothing lost, a sound history kept as is, idempotent", () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const answeredInPlace = (history: readonly BaseMessage[]) =>
      history.every((message, index) => {
        if (message.getType() === "tool") {
          let at = index - 1;
          while (at >= 0 && history[at]!.getType() === "tool") at--;
          const owner = history[at];
          return owner !== undefined && isAIMessage(owner) && owner.tool_calls!.length > 0;
        }
        if (!isAIMessage(message) || !message.tool_calls?.length) return true;
        const next = new Set<string>();
        for (let at = index + 1; at < history.length && history[at]!.getType() === "tool"; at++)
          next.add((history[at] as ToolMessage).tool_call_id);
        return message.tool_calls.every((call) => next.has(call.id!));
      });
    let sound = 0;
    for (let round = 0; round < 400; round++) {
      const history: BaseMessage[] = [new HumanMessage("go")];
      const pending: string[] = [];
      for (let step = 0; step < 8; step++) {
        const kind = random(6);
        if (kind === 0) history.push(new HumanMessage(`h${step}`));
        else if (kind <= 2) {
          const calls = Array.from({ length: 1 + random(2) }, (_, call) => `r${round}s${step}c${call}`);
          history.push(ai(`a${step}`, ...calls));
          pending.push(...calls);
        } else if (pending.length > 0) history.push(answer(pending.splice(random(pending.length), 1)[0]!));
      }
      const { messages, repairs } = repairDanglingToolCalls(history);
      expect(answeredInPlace(messages)).toBe(true);
      expect(new Set(messages).size).toBe(messages.length);
      for (const message of history) expect(messages).toContain(message);
      expect(messages).toHaveLength(history.length + repairs.length);
      if (answeredInPlace(history)) {
        sound++;
        expect(messages).toBe(history);
        expect(repairs).toEqual([]);
      }
      expect(repairDanglingToolCalls(messages).messages).toBe(messages);
    }
    expect(sound).toBeGreaterThan(20);
    expect(sound).toBeLessThan(380);
  });
});
