import { describe, expect, it } from "vitest";
import { joinContinuations } from "./join-continuations.js";

const NL = "\\\n"; // a backslash-newline as typed

describe("joinContinuations", () => {
  it("reports a join inside a word, not one between words", () => {
    expect(joinContinuations(`ca${NL}nary`)?.inWord).toHaveLength(1);
    expect(joinContinuations(`git status ${NL}--short`)?.inWord).toEqual([]);
  });

  it("stops when the budget is spent", () => {
    expect(joinContinuations(`a${NL}b`, { spent: () => true })).toBeUndefined();
  });
});
