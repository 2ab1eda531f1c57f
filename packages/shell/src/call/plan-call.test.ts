// The plan stage on the part of the runtime it reads (requirement checks, skill environments, the executor, the real
// policy, the thread workspaces), after the validate stage of a real runtime.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadBashParser } from "../command/bash-parser.js";
import type { ShellHookOptions } from "../options/shell-hook-options.js";
import type { CommandCallInput } from "./command-call-input.js";
import { callRuntime, scriptInput, shellInput, type CallRuntime } from "./__fixtures__/call-runtime.js";
import { planCall } from "./plan-call.js";
import { validateCall } from "./validate-call.js";

let fixture: CallRuntime | undefined;
beforeAll(() => loadBashParser());
afterEach(async () => {
  await fixture?.dispose();
  fixture = undefined;
});

/** Just what planCall declares it reads, taken from a runtime built from `options`. */
async function planView(options: Partial<ShellHookOptions> = {}) {
  fixture = await callRuntime({ loadedSkills: () => ["report", "needs-pandoc"], ...options });
  const { config, services } = fixture.runtime;
  return {
    config: {
      checkRequirements: config.checkRequirements,
      killAfterOutputBytes: config.killAfterOutputBytes,
      killGraceMs: config.killGraceMs,
      maxOutputBytes: config.maxOutputBytes,
      skillEnvironments: config.skillEnvironments,
    },
    services: {
      catalog: services.catalog,
      executor: services.executor,
      policy: services.policy,
      workspaces: services.workspaces,
    },
    threads: {},
  };
}

/** The call as the validate stage hands it on. */
function validated(input: CommandCallInput, threadId = "t1") {
  const call = validateCall(fixture!.runtime, input, { configurable: { thread_id: threadId } }, threadId);
  if ("ok" in call) throw new Error(call.message);
  return call;
}

describe("planCall", () => {
  it("makes the thread's workspace and plans the line once, in it", async () => {
    const view = await planView();
    const planned = await planCall(view, validated(shellInput("printf hi > out/a.txt")));
    if ("ok" in planned) throw new Error(planned.message);
    expect(existsSync(planned.workspaceDir)).toBe(true);
    expect(path.dirname(planned.workspaceDir)).toBe(fixture!.workspaceRoot);
    expect(planned.plan.commands.map((command) => command.argv[0])).toEqual(["printf"]);
    expect(planned.display).toBe("printf hi > out/a.txt");
    const again = await planCall(view, validated(shellInput("true")));
    const other = await planCall(view, validated(shellInput("true"), "t2"));
    expect((again as { workspaceDir: string }).workspaceDir).toBe(planned.workspaceDir);
    expect((other as { workspaceDir: string }).workspaceDir).not.toBe(planned.workspaceDir);
  });

  it("refuses what the policy refuses, before anything is staged or run", async () => {
    const view = await planView();
    expect(await planCall(view, validated(shellInput("sudo true")))).toMatchObject({ ok: false, reason: "denied" });
    expect(await planCall(view, validated(shellInput("cat ../../etc/passwd")))).toMatchObject({ ok: false });
    // a skill's own script is found in its scripts/ folder; a program elsewhere is not a script of the skill
    const script = await planCall(view, validated(scriptInput("report", "scripts/build.sh")));
    if ("ok" in script) throw new Error(script.message);
    expect(script.plan.commands[0]!.program).toBe(path.join(fixture!.skillsDir, "report/scripts/build.sh"));
  });

  it("refuses a skill whose required program is not on the fixed PATH, unless requirement checks are off", async () => {
    const view = await planView();
    expect(await planCall(view, validated(scriptInput("needs-pandoc", "scripts/convert.sh")))).toMatchObject({
      ok: false,
      reason: "missing-requirements",
      message: expect.stringContaining("needs pandoc"),
    });
    await fixture!.dispose();
    const unchecked = await planView({ checkRequirements: false });
    expect(await planCall(unchecked, validated(scriptInput("needs-pandoc", "scripts/convert.sh")))).toMatchObject({
      plan: { commands: [{ program: path.join(fixture!.skillsDir, "needs-pandoc/scripts/convert.sh") }] },
    });
  });
});
