import { describe, expect, it } from "vitest";
import { approvalQuestion } from "./run-chat-exchange.js";

const request = {
  type: "skillgraph/shell-approval" as const,
  tool: "shell" as const,
  skill: "release",
  command: "git push",
  argv: ["git", "push"],
  cwd: ".",
  executor: "bubblewrap",
};

describe("the chat's approval question", () => {
  it("names the command, the skill and the executor", () => {
    expect(approvalQuestion(request)).toBe("Run `git push` (skill release, bubblewrap)?");
  });

  it("says which pieces of the line cannot be checked before it runs, and why", () => {
    const opaque = [{ piece: 'eval "$X"', message: "eval runs text known only at run time" }];
    expect(approvalQuestion({ ...request, command: 'eval "$X"', opaque })).toBe(
      'Run `eval "$X"` (skill release, bubblewrap)? Not checkable before it runs: `eval "$X"`: eval runs text known only at run time.',
    );
  });
});
