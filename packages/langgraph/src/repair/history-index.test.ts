import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HistoryIndex, scanHistory } from "./history-index.js";
import { threadIds } from "../history/thread-ids.js";
import { validOnWire } from "../__fixtures__/valid-on-wire.js";

const ai = (...ids: string[]) =>
  new AIMessage({
    content: "",
    tool_calls: ids.map((id) => ({ name: "noop", args: {}, id, type: "tool_call" as const })),
  });
const result = (id: string) => new ToolMessage({ content: "ok", tool_call_id: id });

describe("HistoryIndex", () => {
  it("follows a growing thread: an unanswered call makes it unsound until its result is appended", () => {
    const index = new HistoryIndex();
    const start = [new HumanMessage("go")];
    expect(index.of(start).wellFormed).toBe(true);
    const asked = [...start, ai("a")];
    expect(index.of(asked).wellFormed).toBe(false);
    expect([...index.of(asked).usedIds]).toEqual(["a"]);
    const answered = [...asked, result("a")];
    expect(index.of(answered).wellFormed).toBe(true);
    // A repeated call id is a violation no later message mends.
    const repeated = [...answered, ai("a"), result("a")];
    expect(index.of(repeated).wellFormed).toBe(false);
    expect(index.of([...repeated, new HumanMessage("more")]).wellFormed).toBe(false);
  });

  it("rescans a history that is not the last one extended: a message removed, replaced in place, or an older state", () => {
    const index = new HistoryIndex();
    const first = new HumanMessage("go");
    const history: BaseMessage[] = [first, ai("a"), result("a"), ai("b"), result("b")];
    expect(index.of(history).wellFormed).toBe(true);
    expect(index.of(history).usedIds.has("b")).toBe(true);
    // The same array changed in place: the answer of "b" replaced by an orphan result.
    history[4] = result("zzz");
    expect(index.of(history).wellFormed).toBe(false);
    expect(index.of(history).usedIds.has("zzz")).toBe(true);
    // A message removed from the middle (a trimmed state): "a" is no longer used.
    const trimmed = [first, ai("b"), result("b")];
    expect(index.of(trimmed).wellFormed).toBe(true);
    expect(index.of(trimmed).usedIds.has("a")).toBe(false);
    // Back to an older, shorter state of the thread.
    expect(index.of([first, ai("b")]).wellFormed).toBe(false);
  });

  it("gives what a scan from the start gives, for every sequence of histories of one thread", () => {
    const first = new HumanMessage("go");
    const pool: BaseMessage[] = [
      ai("a"),
      ai("b"),
      ai("a", "c"),
      ai(""),
      result("a"),
      result("b"),
      result("c"),
      new ToolMessage({ content: "ok", tool_call_id: "b", artifact: { skillgraph: { kind: "skill-body" } } }),
      new ToolMessage({ content: "ok", tool_call_id: "c", artifact: { other: true } }),
      new HumanMessage("x"),
    ];
    const message = fc.constantFrom(...pool);
    fc.assert(
      fc.property(
        fc.array(fc.array(message, { maxLength: 6 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
        (tails, extend) => {
          const index = new HistoryIndex();
          let history: BaseMessage[] = [first];
          tails.forEach((tail, step) => {
            // Either the thread grows (a new array with the old messages first) or it is replaced.
            history = extend[step] ? [...history, ...tail] : [first, ...tail];
            const facts = index.of(history);
            expect(facts.wellFormed).toBe(validOnWire(history));
            expect(scanHistory(history).wellFormed).toBe(facts.wellFormed);
            expect([...facts.usedIds].sort()).toEqual([...threadIds(history)].sort());
            const marked = history.flatMap((entry, at) =>
              entry.getType() === "tool" && (entry as ToolMessage).artifact?.skillgraph !== undefined ? [at] : [],
            );
            expect(facts.skillResults).toEqual(marked);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
