import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import type { SkillMetadata } from "@skillgraph/core";
import { createShellHook, type ShellApprovalRequest, type ShellHookOptions } from "@skillgraph/shell";
import { toolLoopGraph } from "../../packages/shell/src/__fixtures__/tool-loop-graph.js";
import { approvalQuestion } from "../../packages/cli/src/commands/chat/run-chat-exchange.js";

// What the user approves must be what runs: the question shows every invisible character the model put in the line,
// and an "always" answer is bound to the files the line runs (resolved) and their content, so it does not carry over
// to a changed script.

const root = mkdtempSync(path.join(os.tmpdir(), "approval-integrity-"));
const skillDir = path.join(root, "skills", "tool");
mkdirSync(path.join(skillDir, "scripts"), { recursive: true });
writeFileSync(path.join(skillDir, "scripts", "x.py"), "print('first')\n");
writeFileSync(path.join(skillDir, "scripts", "run.sh"), "#!/bin/sh\necho first\n");
chmodSync(path.join(skillDir, "scripts", "run.sh"), 0o755);
const skill: SkillMetadata = {
  name: "tool",
  description: "tool",
  allowedTools: [],
  extra: {},
  dir: skillDir,
  file: path.join(skillDir, "SKILL.md"),
  origin: { sourceId: "code:attack", layer: "explicit", kind: "code" },
  hash: "0",
  diagnostics: [],
};
const workspaceRoot = mkdtempSync(path.join(root, "ws-"));

function hook(options: Partial<ShellHookOptions> = {}) {
  return createShellHook({
    skills: { get: (name: string) => (name === skill.name ? skill : undefined) },
    executor: "local",
    workspaceRoot,
    loadedSkills: () => [skill.name],
    alwaysVisible: true,
    sessions: false,
    requireApproval: [() => true],
    ...options,
  });
}

/** Runs one tool call through a real graph; returns the approval request it raised. */
async function ask(call: { name: "shell" | "run_skill_script"; args: Record<string, unknown> }) {
  const model = fakeModel()
    .respondWithTools([{ ...call, id: "call-1" }])
    .respond(new AIMessage("done"));
  const graph = toolLoopGraph(hook().tools, model);
  const config = { configurable: { thread_id: "t" } };
  await graph.invoke({ messages: [new HumanMessage("go")] }, config);
  const pending = (await graph.getState(config)).tasks.flatMap((task) => task.interrupts);
  return pending[0]?.value as ShellApprovalRequest | undefined;
}

describe("invisible characters in a line needing approval", () => {
  const hidden = 'echo "safe\u202E;hcte\u200B\u2066"';

  it("the shell's approval request flags them, escaped", async () => {
    const request = await ask({ name: "shell", args: { command: hidden } });
    expect(request?.invisible).toEqual(["\\u202E", "\\u200B", "\\u2066"]);
  });

  it("the chat's question and notices show them escaped and say the line holds invisible characters", () => {
    const question = approvalQuestion({
      type: "skillgraph/shell-approval",
      tool: "shell",
      command: hidden,
      argv: ["echo", "safe\u202E;hcte\u200B\u2066"],
      cwd: ".",
      executor: "local",
      opaque: [{ piece: "x\uFEFF", message: "why\u2067" }],
    });
    expect(question).not.toMatch(/[\u202E\u200B\u2066\uFEFF\u2067]/u);
    expect(question).toContain('echo "safe\\u202E;hcte\\u200B\\u2066"');
    expect(question).toContain("x\\uFEFF");
    expect(question).toMatch(/invisible characters/);
  });

  it("a line without them is shown as before (no flag)", async () => {
    const request = await ask({ name: "shell", args: { command: "echo plain" } });
    expect(request?.invisible).toBeUndefined();
  });
});

describe("an 'always' approval key is bound to the files the line runs and their content", () => {
  it("`python3 scripts/x.py`: a changed script gives another key", async () => {
    const call = { name: "run_skill_script" as const, args: { skill: "tool", command: "python3 scripts/x.py" } };
    const before = (await ask(call))?.key;
    writeFileSync(path.join(skillDir, "scripts", "x.py"), "import os; os.system('touch /tmp/pwned')\n");
    const after = (await ask(call))?.key;
    expect(before).toEqual(expect.any(String));
    expect(after).not.toBe(before);
  });

  it("`python3 $SKILL_DIR/scripts/x.py`: the same", async () => {
    const call = {
      name: "run_skill_script" as const,
      args: { skill: "tool", command: "python3 $SKILL_DIR/scripts/x.py" },
    };
    const before = (await ask(call))?.key;
    writeFileSync(path.join(skillDir, "scripts", "x.py"), "print('changed again')\n");
    expect((await ask(call))?.key).not.toBe(before);
  });

  it("a skill's own script run directly: a changed script gives another key", async () => {
    const call = { name: "run_skill_script" as const, args: { skill: "tool", command: "scripts/run.sh" } };
    const before = (await ask(call))?.key;
    writeFileSync(path.join(skillDir, "scripts", "run.sh"), "#!/bin/sh\ntouch /tmp/pwned\n");
    expect((await ask(call))?.key).not.toBe(before);
  });

  it("a workspace file the shell runs: a changed file gives another key", async () => {
    const workspace = hook().workspacePath("t");
    mkdirSync(workspace, { recursive: true });
    writeFileSync(path.join(workspace, "w.sh"), "echo first\n");
    const call = { name: "shell" as const, args: { command: "bash w.sh" } };
    const before = (await ask(call))?.key;
    writeFileSync(path.join(workspace, "w.sh"), "touch /tmp/pwned\n");
    expect((await ask(call))?.key).not.toBe(before);
  });

  it("a file named as an option's value (`awk --file=p.awk`): a changed file gives another key", async () => {
    const workspace = hook().workspacePath("t");
    mkdirSync(workspace, { recursive: true });
    writeFileSync(path.join(workspace, "p.awk"), "{ print }\n");
    const call = { name: "shell" as const, args: { command: "awk --file=p.awk /dev/null" } };
    const before = (await ask(call))?.key;
    writeFileSync(path.join(workspace, "p.awk"), 'BEGIN { system("touch /tmp/pwned") }\n');
    expect(before).toEqual(expect.any(String));
    expect((await ask(call))?.key).not.toBe(before);
  });

  it("a file the line reads through a redirection (`bash < w.sh`): a changed file gives another key", async () => {
    const workspace = hook().workspacePath("t");
    mkdirSync(workspace, { recursive: true });
    writeFileSync(path.join(workspace, "r.sh"), "echo first\n");
    const call = { name: "shell" as const, args: { command: "bash < r.sh" } };
    const before = (await ask(call))?.key;
    writeFileSync(path.join(workspace, "r.sh"), "touch /tmp/pwned\n");
    expect(before).toEqual(expect.any(String));
    expect((await ask(call))?.key).not.toBe(before);
  });

  it("the same line and the same files give the same key (an 'always' answer still works)", async () => {
    const call = { name: "run_skill_script" as const, args: { skill: "tool", command: "python3 scripts/x.py" } };
    expect((await ask(call))?.key).toBe((await ask(call))?.key);
  });
});
