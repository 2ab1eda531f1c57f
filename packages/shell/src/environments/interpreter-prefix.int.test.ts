// A skill environment made with a Python that is not /usr/bin/python3 (pyenv, conda, Homebrew style: an interpreter
// under its own prefix) runs under bubblewrap too: the prefix is bound read-only where the venv expects it. The
// interpreter here is a real copy of the system Python under a temporary prefix; the script imports a package that is
// installed only in the skill's environment.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import { fixtureCatalog, fixtureSkill } from "../__fixtures__/fixture-catalog.js";
import { toolLoopGraph } from "../__fixtures__/tool-loop-graph.js";
import { buildTinyWheel } from "../__fixtures__/tiny-wheel.js";
import { createBubblewrapExecutor } from "../executor/bubblewrap-executor.js";
import { createShellHook } from "../hook/create-shell-hook.js";
import { installSkillPythonEnvironment } from "./install-skill-python.js";
import { interpreterPrefixes } from "./interpreter-prefix.js";

const bubblewrap = (() => {
  try {
    createBubblewrapExecutor();
    return true;
  } catch {
    return false;
  }
})();

/** A Python under `<root>/prefix`: a copy of the system interpreter, its standard library linked in. */
function pythonPrefix(root: string): string {
  const system = realpathSync("/usr/bin/python3");
  const name = path.basename(system);
  const prefix = path.join(root, "prefix");
  mkdirSync(path.join(prefix, "bin"), { recursive: true });
  mkdirSync(path.join(prefix, "lib"));
  copyFileSync(system, path.join(prefix, "bin", name));
  symlinkSync(name, path.join(prefix, "bin", "python3"));
  symlinkSync(path.join("/usr/lib", name), path.join(prefix, "lib", name));
  return prefix;
}

function greeterSkill(root: string) {
  const dir = path.join(root, "skills", "greeter");
  mkdirSync(path.join(dir, "scripts"), { recursive: true });
  writeFileSync(path.join(dir, "SKILL.md"), "---\nname: greeter\ndescription: Greets with tinygreet.\n---\n");
  writeFileSync(path.join(dir, "requirements.txt"), "tinygreet==1.0\n");
  writeFileSync(
    path.join(dir, "scripts", "greet.py"),
    "import sys, tinygreet\nprint(tinygreet.greet())\nprint(sys.base_prefix)\n",
  );
  return fixtureSkill({ name: "greeter", dir, file: path.join(dir, "SKILL.md") });
}

const executors = (["bubblewrap", "local"] as const).filter((executor) => executor === "local" || bubblewrap);

describe.each(executors)("a skill environment made with a Python outside /usr (%s)", (executor) => {
  it("runs the skill's script with the package installed in its environment", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "interp-prefix-"));
    const prefix = pythonPrefix(root);
    const wheels = path.join(root, "wheels");
    mkdirSync(wheels);
    buildTinyWheel(wheels);
    const skill = greeterSkill(root);
    const envs = path.join(root, "envs");
    // as `skillgraph deps --install` on a host whose python3 is the prefix's
    const installed = await installSkillPythonEnvironment(skill, {
      root: envs,
      pipArgs: ["--no-index", "--find-links", wheels],
      env: { PATH: `${prefix}/bin:/usr/bin:/bin` },
    });
    expect(installed).toMatchObject({ ok: true });
    if (!installed.ok) return;
    expect(readFileSync(path.join(installed.environment, "pyvenv.cfg"), "utf8")).toContain(`home = ${prefix}/bin`);
    expect(interpreterPrefixes(installed.environment)).toEqual([prefix]);

    const hook = createShellHook({
      skills: fixtureCatalog([skill]),
      executor,
      loadedSkills: () => ["greeter"],
      workspaceRoot: path.join(root, "ws"),
      skillEnvironments: { root: envs },
    });
    const model = fakeModel()
      .respondWithTools([
        { name: "run_skill_script", args: { skill: "greeter", command: "python3 scripts/greet.py" }, id: "c1" },
      ])
      .respond(new AIMessage("done"));
    const result = await toolLoopGraph(hook.tools, model).invoke(
      { messages: [new HumanMessage("greet")] },
      { configurable: { thread_id: "t" } },
    );
    await hook.dispose();
    const message = result.messages.find((candidate: unknown) => ToolMessage.isInstance(candidate)) as ToolMessage;
    expect(JSON.parse(String(message.content))).toMatchObject({
      status: "ok",
      stdout: `hello from tinygreet\n${prefix}\n`,
      executor,
    });
  });
});

describe.skipIf(!bubblewrap)("without the prefix bound", () => {
  it("the same environment fails in the sandbox (what the binding fixes)", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "interp-prefix-"));
    const prefix = pythonPrefix(root);
    const wheels = path.join(root, "wheels");
    mkdirSync(wheels);
    buildTinyWheel(wheels);
    const skill = greeterSkill(root);
    const installed = await installSkillPythonEnvironment(skill, {
      root: path.join(root, "envs"),
      pipArgs: ["--no-index", "--find-links", wheels],
      env: { PATH: `${prefix}/bin:/usr/bin:/bin` },
    });
    if (!installed.ok) throw new Error(installed.message);
    const workspaceDir = path.join(root, "ws");
    mkdirSync(workspaceDir);
    const run = await createBubblewrapExecutor().run({
      argv: [],
      shellCommand: 'python3 "$SKILL_DIR"/scripts/greet.py',
      searchPath: "/env/bin:/usr/local/bin:/usr/bin:/bin",
      cwd: workspaceDir,
      workspaceDir,
      skillDir: skill.dir,
      skillName: skill.name,
      skillEnvironment: { hostDir: installed.environment, writable: false },
      env: {},
      timeoutMs: 30_000,
      killGraceMs: 1_000,
      maxOutputBytes: 16_384,
      killAfterOutputBytes: 1_048_576,
      runId: randomUUID(),
    });
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toContain("ModuleNotFoundError");
  });
});
