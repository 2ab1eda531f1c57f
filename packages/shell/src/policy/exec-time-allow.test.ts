import { describe, expect, it } from "vitest";
import { compileApprovalRules } from "./approval-rules.js";
import { parseCommandRule, type CommandRule } from "./command-rules.js";
import { admitsStart, execAllowList } from "./exec-time-allow.js";
import { execTimeRules } from "./exec-time-rules.js";

const allowRules = (...rules: string[]): CommandRule[] =>
  rules.map((rule) => parseCommandRule(rule, "allow") as CommandRule);
const skill = (...allowedTools: string[]) => ({ name: "s", dir: "/skills/s", allowedTools });

describe("the allow list at exec time", () => {
  it("admits nothing extra without an allow list, with `*`, or with a bare Bash grant", () => {
    expect(execAllowList({}, [skill("Bash(git status:*)")])).toBeUndefined();
    expect(execAllowList({ allow: allowRules("*") }, [])).toBeUndefined();
    expect(execAllowList({ allow: allowRules("ls") }, [skill("Read", "Bash")])).toBeUndefined();
  });

  it("reads one-word rules as whole programs and longer ones as programs judged on their arguments", () => {
    const allow = execAllowList({ allow: allowRules("python3", "git status:*", "npm run test") }, [
      skill("Bash(jq:*)", "Bash(git log:*)", "Bash(git:*)"),
    ]);
    expect(allow?.wholly).toEqual(["git", "jq", "python3"]);
    expect(allow?.byArguments).toEqual(["npm"]);
  });

  it("judges a start narrowly, as the planner reads allow rules; git's -c options do not hide the subcommand", () => {
    const allow = execAllowList({ allow: allowRules("git status:*", "npm run test") }, []);
    if (!allow) throw new Error("expected an allow list");
    expect(admitsStart(allow, ["git", "status", "--short"])).toBe(true);
    expect(admitsStart(allow, ["git", "-c", "color.ui=never", "status"])).toBe(true);
    expect(admitsStart(allow, ["git", "push"])).toBe(false);
    expect(admitsStart(allow, ["npm", "run", "test"])).toBe(true);
    expect(admitsStart(allow, ["npm", "run", "test", "--", "x"])).toBe(false);
    expect(admitsStart(allow, ["curl", "x"])).toBe(false);
  });

  it("gates the programs admitted by arguments, and refuses what the list does not admit after the deny rules", () => {
    const rules = execTimeRules({
      policy: { deny: [parseCommandRule("sudo", "deny", { prefix: true }) as CommandRule] },
      approvalRules: compileApprovalRules([]),
      approved: [],
      tool: "shell",
      sandboxed: true,
      allow: execAllowList({ allow: allowRules("cat", "bash -c:*", "sudo -l") }, [skill("Bash(git status:*)")]),
    });
    // bash is a shell every line runs in (never gated), sudo is stubbed
    expect(rules.programs).toEqual(["git"]);
    const start = (argv: string[]) =>
      rules.decide({ program: "/usr/bin/git", names: ["git"], argv, cwd: "/workspace" });
    expect(start(["git", "status"])).toEqual({ run: true });
    expect(start(["git", "push", "origin"])).toMatchObject({
      run: false,
      needsApproval: false,
      reason: expect.stringContaining("not in the allow list") as string,
    });
  });
});
