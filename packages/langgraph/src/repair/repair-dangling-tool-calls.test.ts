import { AIMessage, HumanMessage, isAIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { cancelledToolMessageId, repairDanglingToolCalls } from "./repair-dangling-tool-calls.js";
import { validOnWire } from "../__fixtures__/valid-on-wire.js";

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

  it("does not take a call whose id repeats an answered one as answered by that earlier result", () => {
    const history = [
      ai("a1", "call_0"),
      answer("call_0"),
      new AIMessage("ok"),
      new HumanMessage("next"),
      ai("a2", "call_0"),
    ];
    const { messages, repairs, orphans } = repairDanglingToolCalls(history);
    expect(orphans).toEqual([]);
    expect(repairs).toHaveLength(1);
    expect(repairs[0]!.tool_call_id).toBe("call_0");
    expect(repairs[0]!.id).toBe(cancelledToolMessageId("call_0-skillgraph-1"));
    expect(repairs[0]!.id).not.toBe(cancelledToolMessageId("call_0"));
    const sent = messages.at(-2) as AIMessage;
    expect(sent.id).toBe("a2");
    expect(sent.tool_calls![0]!.id).toBe("call_0-skillgraph-1");
    expect((messages.at(-1) as ToolMessage).tool_call_id).toBe("call_0-skillgraph-1");
    expect((messages[1] as ToolMessage).tool_call_id).toBe("call_0");
    expect(repairDanglingToolCalls([...history, repairs[0]!]).repairs).toEqual([]);
  });

  it("pairs each answer of a repeated call id with the call right before it, renaming the later one on the wire", () => {
    const history = [ai("a1", "call_0"), answer("call_0"), ai("a2", "call_0"), answer("call_0"), new AIMessage("done")];
    const { messages, repairs } = repairDanglingToolCalls(history);
    expect(repairs).toEqual([]);
    expect(messages.map((message) => message.getType())).toEqual(["ai", "tool", "ai", "tool", "ai"]);
    expect(messages[3]).not.toBe(history[3]);
    expect((messages[3] as ToolMessage).tool_call_id).toBe((messages[2] as AIMessage).tool_calls![0]!.id);
    expect(messages[3]!.text).toBe("answer call_0");
    expect(history[2]).toBeInstanceOf(AIMessage);
    expect((history[2] as AIMessage).tool_calls![0]!.id).toBe("call_0");
  });

  it("gives a result in the block right after an AI message to that message's call, not an older open one", () => {
    const history = [ai("a1", "c"), new HumanMessage("stop"), ai("a2", "c"), answer("c")];
    const { messages, repairs } = repairDanglingToolCalls(history);
    expect(repairs.map((repair) => [repair.tool_call_id, repair.id])).toEqual([["c", cancelledToolMessageId("c")]]);
    expect(messages.map((message) => message.getType())).toEqual(["ai", "tool", "human", "ai", "tool"]);
    expect(messages[1]!.text).toContain("cancelled");
    expect(messages[4]!.text).toBe("answer c");
    expect((messages[4] as ToolMessage).tool_call_id).toBe((messages[3] as AIMessage).tool_calls![0]!.id);
  });

  it("answers a call sent raw (its arguments did not parse) with a 'not run' result, renaming a repeated raw id", () => {
    const rawOnly = (id: string, call: string) =>
      new AIMessage({
        content: "",
        id,
        tool_calls: [],
        invalid_tool_calls: [{ name: "job", args: "{", id: call, error: "bad JSON", type: "invalid_tool_call" }],
        additional_kwargs: { tool_calls: [{ id: call, type: "function", function: { name: "job", arguments: "{" } }] },
      });
    const history = [rawOnly("a1", "call_0"), answer("call_0"), new HumanMessage("again"), rawOnly("a2", "call_0")];
    const { messages, repairs, orphans } = repairDanglingToolCalls(history);
    expect(orphans).toEqual([]);
    expect(repairs.map((repair) => repair.tool_call_id)).toEqual(["call_0"]);
    expect(repairs[0]!.text).toContain("was not run: its arguments did not parse (bad JSON)");
    const sent = messages[3] as AIMessage;
    const rawIds = (sent.additional_kwargs.tool_calls as Array<{ id: string }>).map((raw) => raw.id);
    expect(rawIds).toEqual(["call_0-skillgraph-1"]);
    expect(sent.tool_calls).toEqual([]);
    expect((messages[4] as ToolMessage).tool_call_id).toBe("call_0-skillgraph-1");
    expect(messages[1]).toBe(history[1]);
  });

  it("leaves out results that answer no call (a replaced AI message) or a call already answered, keeping the input", () => {
    const replaced = new AIMessage({ content: "the reply that replaced the call", id: "chatcmpl-1" });
    const history = [new HumanMessage("hi"), replaced, answer("call_9"), ai("a2", "c1"), answer("c1"), answer("c1")];
    const { messages, orphans } = repairDanglingToolCalls(history);
    expect(orphans).toEqual([2, 5]);
    expect(messages).toEqual([history[0], replaced, history[3], history[4]]);
    expect(history).toHaveLength(6);
  });

  it("gives empty call ids an id on the wire and answers them in place", () => {
    const empty = new AIMessage({
      content: "",
      id: "a",
      tool_calls: [{ name: "job", args: {}, id: "", type: "tool_call" }],
    });
    const { messages, repairs } = repairDanglingToolCalls([empty, answer("")]);
    expect(repairs).toEqual([]);
    const id = (messages[0] as AIMessage).tool_calls![0]!.id!;
    expect(id).not.toBe("");
    expect((messages[1] as ToolMessage).tool_call_id).toBe(id);
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

describe("repairDanglingToolCalls on damaged histories (repeated message and call ids, empty ids, orphan results)", () => {
  it("every call answered right after it under a unique id, only orphans left out, persisted repairs settle it", () => {
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return Math.floor(seed / 65_536) % n; // the high bits: the low ones of this generator cycle quickly
    };
    const callIds = ["call_0", "call_1", ""];
    const counts = { orphans: 0, renamed: 0, repairs: 0 };
    for (let round = 0; round < 400; round++) {
      const history: BaseMessage[] = [new HumanMessage("go")];
      const pending: string[] = [];
      for (let step = 0; step < 9; step++) {
        const kind = random(8);
        if (kind === 0) history.push(new HumanMessage(`h${step}`));
        else if (kind <= 2) {
          const calls = Array.from({ length: 1 + random(2) }, () => callIds[random(callIds.length)]!);
          history.push(ai(`chatcmpl-${random(3)}`, ...calls));
          pending.push(...calls);
        } else if (kind === 3) history.push(answer(random(2) === 0 ? "call_0" : `gone_${step}`));
        else if (pending.length > 0) history.push(answer(pending.splice(random(pending.length), 1)[0]!));
      }
      const { messages, repairs, orphans } = repairDanglingToolCalls(history);
      expect(validOnWire(messages)).toBe(true);
      expect(messages).toHaveLength(history.length - orphans.length + repairs.length);
      for (const index of orphans) expect(history[index]!.getType()).toBe("tool");
      const sentText = messages.map((message) => `${message.getType()}:${message.id}:${message.text}`);
      history.forEach((message, index) => {
        if (!orphans.includes(index)) expect(sentText).toContain(`${message.getType()}:${message.id}:${message.text}`);
      });
      expect(new Set(repairs.map((repair) => repair.id)).size).toBe(repairs.length);
      expect(repairDanglingToolCalls(messages).messages).toBe(messages);
      const persisted = [...history, ...repairs];
      expect(repairDanglingToolCalls(persisted).repairs).toEqual([]);
      expect(validOnWire(repairDanglingToolCalls(persisted).messages)).toBe(true);
      counts.orphans += orphans.length;
      counts.repairs += repairs.length;
      counts.renamed += messages.filter((message, index) => message !== history[index] && isAIMessage(message)).length;
    }
    expect(counts.orphans).toBeGreaterThan(50);
    expect(counts.repairs).toBeGreaterThan(50);
    expect(counts.renamed).toBeGreaterThan(50);
  });
});
