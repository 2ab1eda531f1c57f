import { describe, expect, it } from "vitest";
import { skillCommandGrant } from "./command-rules.js";
import { matchesCommandRule } from "./command-rules.js";

describe("skillCommandGrant", () => {
  it("turns Bash(prefix:*) entries into prefix rules and ignores other tools", () => {
    const grant = skillCommandGrant("demo", [
      "Read",
      "Edit",
      "Bash(git status:*)",
      "Bash(npm run test:*)",
      "Bash(python3:*)",
    ]);
    expect(grant.rules.map((rule) => rule.prefix)).toEqual([["git", "status"], ["npm", "run", "test"], ["python3"]]);
    expect(grant.anyCommand).toBe(false);
    expect(grant.mentionsShell).toBe(true);
  });

  it("matches prefixes on argv, not on text", () => {
    const [status, test] = skillCommandGrant("demo", ["Bash(git status:*)", "Bash(npm run test:*)"]).rules;
    expect(matchesCommandRule(status!, ["git", "status", "--short"])).toBe(true);
    expect(matchesCommandRule(status!, ["git", "statusx"])).toBe(false);
    expect(matchesCommandRule(status!, ["git", "push"])).toBe(false);
    expect(matchesCommandRule(test!, ["npm", "run", "test", "--", "-u"])).toBe(true);
    expect(matchesCommandRule(test!, ["npm", "run", "build"])).toBe(false);
  });

  it("treats a rule without :* as exact", () => {
    const [rule] = skillCommandGrant("demo", ["Bash(git status)"]).rules;
    expect(matchesCommandRule(rule!, ["git", "status"])).toBe(true);
    expect(matchesCommandRule(rule!, ["git", "status", "-s"])).toBe(false);
  });

  it("reads a bare Bash entry as any command", () => {
    expect(skillCommandGrant("demo", ["Bash", "Write"]).anyCommand).toBe(true);
    expect(skillCommandGrant("demo", ["Read", "Write"])).toEqual({
      rules: [],
      anyCommand: false,
      mentionsShell: false,
    });
  });
});
