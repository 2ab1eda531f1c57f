import { describe, expect, it } from "vitest";
import { fixtureCatalog, fixtureSkill, prompterDir } from "../__fixtures__/fixture-catalog.js";
import { createShellHook } from "./create-shell-hook.js";

const prompter = fixtureSkill({ name: "prompter", dir: prompterDir });

describe("the tool's own view of loaded skills", () => {
  const hook = createShellHook({ skills: fixtureCatalog([prompter]), executor: "local" });

  it("lets the tool see what authorize saw when the graph state carries no loaded skills", async () => {
    const run = hook.tools.find((tool) => tool.name === "run_skill_script")!;
    const config = { configurable: { thread_id: "seen" } };
    const before = JSON.parse(
      String(await run.invoke({ skill: "prompter", command: "scripts/ask-twice.sh", stdin: "a\nb\n" }, config)),
    );
    expect(before).toMatchObject({ status: "refused", reason: "skill-not-read" });
    hook.authorize!(
      { toolName: "run_skill_script", args: { skill: "prompter", command: "scripts/ask-twice.sh" } },
      { loadedSkills: [prompter], threadId: "seen" },
    );
    const after = JSON.parse(
      String(await run.invoke({ skill: "prompter", command: "scripts/ask-twice.sh", stdin: "a\nb\n" }, config)),
    );
    expect(after).toMatchObject({ status: "ok", stdout: "Name? Color? Hello a, you like b\n" });
  });
});
