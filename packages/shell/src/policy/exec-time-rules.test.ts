import { describe, expect, it } from "vitest";
import { compileApprovalRules } from "./approval-rules.js";
import { parseCommandRule, type CommandRule } from "./command-rules.js";
import { execTimeRules, gatedProgramNames, judgedArgv } from "./exec-time-rules.js";

const deny = (...rules: string[]): CommandRule[] =>
  rules.map((rule) => parseCommandRule(rule, "deny", { prefix: true }) as CommandRule);

function decide(argv: string[], options: { deny?: string[]; approval?: string[]; approved?: string[][] } = {}) {
  const rules = execTimeRules({
    policy: { deny: deny(...(options.deny ?? [])) },
    approvalRules: compileApprovalRules(options.approval ?? []),
    approved: options.approved ?? [],
    tool: "shell",
    sandboxed: true,
  });
  return rules.decide({ program: "/usr/bin/git", names: ["git"], argv, cwd: "/workspace" });
}

describe("exec-time rules", () => {
  it("gates the first word of argument-level rules, not wholly denied programs or the shells commands run in", () => {
    const names = gatedProgramNames(
      { deny: deny("sudo", "git push", "npm publish", "sudo -i", "bash -c") },
      compileApprovalRules(["rm", /curl/, "docker run"]),
    );
    expect(names).toEqual(["docker", "git", "npm", "rm"]);
  });

  it("judges a multi-call program by the name it was started as", () => {
    expect(judgedArgv({ names: ["git"], argv: ["/usr/lib/git-core/git-push", "origin"] })).toEqual([
      "git",
      "push",
      "origin",
    ]);
    expect(judgedArgv({ names: ["git"], argv: ["innocent", "push"] })).toEqual(["git", "push"]);
  });

  it("denies through git's global options, the dashed form and aliases; runs the rest", () => {
    const rules = { deny: ["git push"] };
    expect(decide(["git", "status"], rules)).toEqual({ run: true });
    expect(decide(["git", "-c", "user.name=n", "-cuser.email=e", "commit", "-m", "m"], rules)).toEqual({ run: true });
    for (const argv of [
      ["git", "push"],
      ["git", "-C", "r", "--no-pager", "push", "origin"],
      ["git-push", "origin"],
      ["git", "-c", "alias.p=push", "p"],
      ["git", "-c", "x=y", "-C", "r", "push"],
      ["git", "--config-env=alias.p=P", "p"],
      ["git", "p"],
    ])
      expect(decide(argv, rules), argv.join(" ")).toMatchObject({ run: false, needsApproval: false });
  });

  it("asks for approval unless this exact command was approved for the call", () => {
    const rules = { approval: ["git push"] };
    expect(decide(["git", "push", "origin", "main"], rules)).toMatchObject({ run: false, needsApproval: true });
    expect(
      decide(["git", "push", "origin", "main"], { ...rules, approved: [["git", "push", "origin", "main"]] }),
    ).toEqual({ run: true });
    expect(
      decide(["git", "push", "--force", "origin", "main"], { ...rules, approved: [["git", "push", "origin", "main"]] }),
    ).toMatchObject({ run: false, needsApproval: true });
  });
});
