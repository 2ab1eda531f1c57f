import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import { createShellHook, type ApprovalRule } from "@skillgraph/shell";
import { toolLoopGraph } from "../../packages/shell/src/__fixtures__/tool-loop-graph.js";

// Approval, deny and allow rules must match what they name: a prefix covers longer commands, git's global options and
// wrapper programs (env, nice, timeout, xargs, find -exec, ...) are seen through, and what cannot be seen through is
// refused. Approval is checked through a real graph: the interrupt must be raised before anything runs.

const catalog = { get: () => undefined };

async function interrupts(requireApproval: ApprovalRule[], command: string): Promise<boolean> {
  const hook = createShellHook({
    skills: catalog,
    executor: "local",
    requireApproval,
    workspaceRoot: mkdtempSync(path.join(os.tmpdir(), "rules-")),
  });
  const model = fakeModel()
    .respondWithTools([{ name: "shell", args: { command }, id: "call-1" }])
    .respond(new AIMessage("done"));
  const graph = toolLoopGraph(hook.tools, model);
  const config = { configurable: { thread_id: "t" } };
  const result = await graph.invoke({ messages: [new HumanMessage("go")] }, config);
  const pending = (await graph.getState(config)).tasks.flatMap((task) => task.interrupts);
  if (pending.length === 0) {
    // not interrupted: the command ran or was refused; either way it must say so
    expect(result.messages.length).toBeGreaterThan(1);
  }
  return pending.length > 0;
}

const approvalCases: Array<[string, ApprovalRule[], string]> = [
  ["the docs' own example with arguments", ["git push"], "git push origin main"],
  ["a bare command", ["git push"], "git push"],
  ["git's -C before the subcommand", ["git push"], "git -C . push origin main"],
  ["git's -c before the subcommand", ["git push"], "git -c user.name=x push"],
  ["git's --no-pager", ["git push"], "git --no-pager push"],
  ["git's --git-dir=", ["git push"], "git --git-dir=.git push"],
  ["git's -P", ["git push"], "git -P push --force"],
  ["env in front", ["git push"], "env git push"],
  ["env with an allowed assignment", ["git push"], "env TZ=UTC git push"],
  ["nice -n in front", ["git push"], "nice -n 5 git push"],
  ["timeout in front", ["git push"], "timeout 30 git push"],
  ["nohup in front", ["git push"], "nohup git push"],
  ["setsid in front", ["git push"], "setsid git push"],
  ["stdbuf in front", ["git push"], "stdbuf -o0 git push"],
  ["xargs running it", ["git push"], "xargs git push"],
  ["find -exec running it", ["rm"], "find . -name x -exec rm {} ';'"],
  ["find -execdir running it", ["rm"], "find . -execdir rm -f {} +"],
  ["nested wrappers", ["git push"], "env nice timeout 5 git push"],
  ["a single program rule", ["rm"], "rm -rf out"],
  ["timeout with a kill-after option", ["git push"], "timeout -k 5 30 git push"],
  ["a global RegExp rule, first call", [/push/g], "git push"],
  ["a global RegExp rule, second call (no lastIndex carry-over)", [/push/g], "git push origin"],
  ["a RegExp rule over an unwrapped layer", [/^git push/], "env git push"],
  [
    "a predicate rule",
    [(candidate) => candidate.layers.some((layer) => layer[0] === "git" && layer[1] === "push")],
    "nice git push",
  ],
  [
    "a predicate that throws (fail closed)",
    [
      () => {
        throw new Error("bug in the app's rule");
      },
    ],
    "true",
  ],
];

const noApprovalCases: Array<[string, ApprovalRule[], string]> = [
  ["a different subcommand", ["git push"], "git status"],
  ["a prefix that is only a substring", ["git st"], "git status"],
  ["a predicate returning false", [() => false], "true"],
];

describe("approval rules match what they name", () => {
  it.each(approvalCases)("interrupts for %s", async (_name, rules, command) => {
    expect(await interrupts(rules, command)).toBe(true);
  });

  it.each(noApprovalCases)("does not interrupt for %s", async (_name, rules, command) => {
    expect(await interrupts(rules, command)).toBe(false);
  });
});

const workspaceRoot = mkdtempSync(path.join(os.tmpdir(), "rules-deny-"));
const defaults = createShellHook({ skills: catalog, executor: "local", workspaceRoot });
const authorize = (command: string, hook = defaults) =>
  hook.authorize!({ toolName: "shell", args: { command } }, { loadedSkills: [], threadId: "t" });

const deniedThroughWrappers: Array<[string, string]> = [
  ["env", "env kill 1"],
  ["env -i", "env -i kill -9 1"],
  ["nohup", "nohup kill 1"],
  ["setsid", "setsid kill 1"],
  ["setsid -f", "setsid -f kill 1"],
  ["nice", "nice -n 10 kill 1"],
  ["timeout", "timeout 5 kill 1"],
  ["timeout with a signal option", "timeout -s KILL 5 kill 1"],
  ["xargs", "xargs kill"],
  ["xargs -n 1", "xargs -n 1 kill"],
  ["xargs -0 -r", "xargs -0 -r kill"],
  ["find -exec", "find . -exec kill 1 ';'"],
  ["find -ok", "find . -ok kill 1 \\;"],
  ["stdbuf", "stdbuf -oL kill 1"],
  ["time", "time kill 1"],
  ["ionice", "ionice -c 3 kill 1"],
  ["a path to the program", "env /bin/kill 1"],
  ["pkill through env", "env pkill node"],
  ["sudo", "sudo id"],
  ["nested", "env nice nohup timeout 1 kill 1"],
];

const opaqueRefused: Array<[string, string]> = [
  ["sh -c", "sh -c 'kill 1'"],
  ["bash -c", "bash -c id"],
  ["bash -ec", "bash -ec id"],
  ["dash -c through env", "env dash -c id"],
  ["watch", "watch -n1 id"],
  ["script -c", "script -qc id /dev/null"],
  ["strace", "strace -f id"],
  ["busybox", "busybox sh"],
  ["flock", "flock x id"],
  ["chrt", "chrt 1 id"],
  ["taskset", "taskset 1 id"],
  ["env -S", "env -S 'id -u'"],
  ["an unknown wrapper option", "timeout --weird 1 id"],
  ["prlimit", "prlimit --nproc=1 id"],
];

describe("deny rules see through wrappers", () => {
  it.each(deniedThroughWrappers)("refuses a denied program behind %s", (_name, command) => {
    expect(authorize(command)).toMatchObject({ allowed: false, reason: expect.stringMatching(/^denied/) });
  });

  it.each(opaqueRefused)("refuses %s, whose inner command cannot be checked", (_name, command) => {
    expect(authorize(command)).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/^(opaque-command|denied)/),
    });
  });

  it("a deny rule of several words covers longer commands", () => {
    const hook = createShellHook({ skills: catalog, executor: "local", workspaceRoot, deny: ["git push"] });
    expect(authorize("git push origin main", hook)).toMatchObject({ allowed: false });
    expect(authorize("git -C . push", hook)).toMatchObject({ allowed: false });
    expect(authorize("git status", hook)).toEqual({ allowed: true });
  });
});

describe("allow lists need every program a line runs", () => {
  const strict = createShellHook({
    skills: catalog,
    executor: "local",
    workspaceRoot,
    allow: ["git status", "echo", "timeout"],
  });
  it.each([
    ["git status with -c (config can run code)", "git -c core.fsmonitor=id status"],
    ["git status with -C", "git -C /etc status"],
    ["a wrapper around an unlisted program", "timeout 5 id"],
    ["env around a listed program (env is not listed)", "env echo hi"],
    ["xargs (not listed)", "xargs echo"],
    ["an exact rule given more arguments", "git status --porcelain"],
  ])("refuses %s", (_name, command) => {
    expect(authorize(command, strict)).toMatchObject({ allowed: false });
  });

  it.each([
    ["a listed program", "echo hi"],
    ["a listed wrapper around a listed program", "timeout 5 echo hi"],
    ["an exact rule", "git status"],
  ])("allows %s", (_name, command) => {
    expect(authorize(command, strict)).toEqual({ allowed: true });
  });
});
