import { describe, expect, it } from "vitest";
import { commandRules } from "../policy/policy-options.js";
import { deniedProgramNames } from "./denied-programs.js";

describe("deniedProgramNames", () => {
  it("takes the one-word deny rules by program name, leaving argument-level rules to the planner", () => {
    const deny = commandRules("deny", ["sudo", "/usr/bin/python3", "git push", "sudo", "npm publish:*"]);
    expect(deniedProgramNames({ deny })).toEqual(["python3", "sudo"]);
  });
});
