import { existsSync, mkdtempSync, readdirSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createShellHook, type ShellApprovalRequest, type ShellHookOptions } from "@skillgraph/shell";
import { toolLoopGraph } from "../../packages/shell/src/__fixtures__/tool-loop-graph.js";

// Under the local executor nothing but the checker keeps a command's writes inside the workspace. Each line below
// writes (or deletes) outside it when run unchecked, through an option with its path attached or a path known only
// at run time. Run through the real local executor: without approval rules each is refused and nothing appears
// next to (or above) the workspace; with approval rules the run-time ones ask first, showing the line.

const root = mkdtempSync(path.join(os.tmpdir(), "local-writes-"));
const made: Array<ReturnType<typeof createShellHook>> = [];
afterAll(async () => {
  for (const created of made) await created.dispose();
});

function hook(options: Partial<ShellHookOptions> = {}) {
  const created = createShellHook({
    skills: { get: () => undefined },
    executor: "local",
    workspaceRoot: mkdtempSync(path.join(root, "ws-")),
    alwaysVisible: true,
    sessions: false,
    ...options,
  });
  made.push(created);
  return created;
}

/** Lines whose target is written with the option: each wrote outside the workspace before these checks held. */
const optionForms: Array<[string, string]> = [
  ["cp -t DIR", "cp -t .. x"],
  ["cp -t..", "cp -t.. x"],
  ["cp -vt.. (a cluster)", "cp -vt.. x"],
  ["cp --target-directory DIR", "cp --target-directory .. x"],
  ["cp --target-directory=", "cp --target-directory=.. x"],
  ["cp --target= (an abbreviation)", "cp --target=.. x"],
  ["install -t..", "install -t.. x"],
  ["install -Dt.. (a cluster)", "install -Dt.. x"],
  ["mv -t..", "mv -t.. x"],
  ["mv -ft.. (a cluster)", "mv -ft.. x"],
  ["dd of=", "dd if=x of=../escaped"],
  ["sort -o FILE", "sort -o ../escaped x"],
  ["sort -o../x", "sort -o../escaped x"],
  ["sort -uo../x (a cluster)", "sort -uo../escaped x"],
  ["tar -C..", "tar -cf a.tar x && tar -xf a.tar -C.."],
];

/** Lines whose target (or program) is known only when the line runs. */
const runTimeForms: Array<[string, string]> = [
  ["${PWD%/*} in a redirection", "echo x > ${PWD%/*}/escaped"],
  ["${PWD%/*} as an operand", "cp x ${PWD%/*}/escaped"],
  ["~/.. as an operand", "cp x ~/../escaped"],
  ["a variable holding ..", "d=..; cp x $d/escaped"],
  ["$(...) as a folder", 'cp x "$(dirname "$PWD")"/escaped'],
  ["sort -o with ${PWD%/*} glued", 'sort -o"${PWD%/*}/escaped" x'],
  ["dd of= with ${PWD%/*}", "dd if=x of=${PWD%/*}/escaped"],
  ["tar -C with ${PWD%/*}", "tar -cf a.tar x && tar -xf a.tar -C ${PWD%/*}"],
  ["a glob that climbs", "cp x d*/../../escaped"],
  ["rm of ${PWD%/*}", "rm -f ${PWD%/*}/victim"],
  ["cd to ${PWD%/*}", "cd ${PWD%/*} && touch escaped"],
  ["a symlink to ${PWD%/*}", "ln -s ${PWD%/*} up && touch up/escaped"],
  ["$(...) as the program", "$(echo touch) ${PWD%/*}/escaped"],
  ["a variable as the program", "p=rm; $p -f ${PWD%/*}/victim"],
];

/** Refused even with approval rules: the folder written before the expansion is outside the workspace. */
const outsidePrefix: Array<[string, string]> = [["/proc/$$/cwd/..", "cp x /proc/$$/cwd/../escaped"]];

describe("writes outside the workspace under the local executor", () => {
  const guarded = hook();
  const shell = guarded.tools.find((tool) => tool.name === "shell")!;
  const config = { configurable: { thread_id: "writes" } };
  const parent = path.dirname(guarded.workspacePath("writes"));
  const victim = path.join(parent, "victim");
  const run = async (command: string) => JSON.parse(String(await shell.invoke({ command }, config)));
  const around = () => [readdirSync(parent).sort(), readdirSync(root).sort()];

  it.each([...optionForms, ...runTimeForms, ...outsidePrefix])(
    "refuses %s, and nothing changes outside",
    async (_name, command) => {
      expect((await run("echo x > x && mkdir -p d")).status).toBe("ok");
      writeFileSync(victim, "keep");
      const before = around();
      const result = await run(command);
      expect(result.status, JSON.stringify(result)).toBe("refused");
      expect(around()).toEqual(before);
      expect(existsSync(victim)).toBe(true);
    },
  );

  it.each([
    ["a program writing its second operand (python3 -m json.tool IN OUT)", "python3 -m json.tool x.json l*"],
    ["cp into the glob's match", "cp x.json l*"],
  ])("refuses a glob over a folder holding a symlink that leads out: %s", async (_name, command) => {
    const outside = mkdtempSync(path.join(root, "outside-"));
    expect((await run("echo '{}' > x.json")).status).toBe("ok");
    // a dangling symlink to a file outside (a cloned repository or an unpacked archive can hold one): a write creates it
    const link = path.join(guarded.workspacePath("writes"), "lnk");
    symlinkSync(path.join(outside, "escaped.json"), link);
    try {
      const result = await run(command);
      expect(result.status, JSON.stringify(result)).toBe("refused");
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      unlinkSync(link);
    }
  });

  it("still runs the same commands inside the workspace (the check is not a blanket refusal)", async () => {
    const result = await run(
      'mkdir -p d e && cp -t d x && cp -vt e x && sort -o d/s x && dd if=x of=d/y 2>/dev/null && ls d* && cat *.txt "$WORKSPACE"/d/* 2>/dev/null; echo $HOME',
    );
    expect(result.status, JSON.stringify(result)).toBe("ok");
    expect(readdirSync(path.join(guarded.workspacePath("writes"), "d")).sort()).toEqual(["s", "x", "y"]);
  });
});

/** The approval request a tool call raised through a real graph, or undefined when it ran or was refused. */
async function interruptOf(command: string): Promise<ShellApprovalRequest | undefined> {
  const model = fakeModel()
    .respondWithTools([{ name: "shell", args: { command }, id: "call-1" }])
    .respond(new AIMessage("done"));
  const graph = toolLoopGraph(hook({ requireApproval: ["git push"] }).tools, model);
  const config = { configurable: { thread_id: "t" } };
  await graph.invoke({ messages: [new HumanMessage("go")] }, config);
  const pending = (await graph.getState(config)).tasks.flatMap((task) => task.interrupts);
  return pending[0]?.value as ShellApprovalRequest | undefined;
}

describe("with approval rules, a path or program known only at run time asks first (interrupt with the line)", () => {
  it.each(runTimeForms)("%s", async (_name, command) => {
    const request = await interruptOf(command);
    expect(request?.command).toBe(command);
    expect(request?.opaque?.length).toBeGreaterThan(0);
    expect(readdirSync(root)).not.toContain("escaped");
  });
});
