// The skills state channel is one contract (SKILLS_STATE_KEY and AgentSkillsState from @skillgraph/core): what the
// runtime writes, inspectSession reads; drift inspectSession reports, the runtime settles under its own onDrift policy.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SKILLS_STATE_KEY as CORE_KEY } from "../packages/core/src/load-state.js";
import type { SkillDriftPolicy } from "../packages/core/src/index.js";
import { closeCheckpointer, createCheckpointer, inspectSession } from "../packages/checkpoint/src/index.js";
import { HumanMessage, createAgent } from "../packages/langgraph/src/__fixtures__/langchain.js";
import { answer, callTool, RecordingChatModel } from "../packages/langgraph/src/__fixtures__/recording-chat-model.js";
import { createSkillRegistry, skillsFromDirectory } from "../packages/langgraph/src/__fixtures__/test-skills.js";
import { createSkillsMiddleware } from "../packages/langgraph/src/index.js";
import { SKILLS_STATE_KEY } from "../packages/langgraph/src/state.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function skillsFolder(names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "sg-contract-"));
  dirs.push(dir);
  for (const name of names) {
    mkdirSync(join(dir, name));
    writeFileSync(
      join(dir, name, "SKILL.md"),
      `---\nname: ${name}\ndescription: ${name} work for the contract test.\n---\n${name} v1\n`,
    );
  }
  return dir;
}

describe("skills state contract between the runtime and @skillgraph/checkpoint", () => {
  it("uses the one channel key from core", () => {
    expect(SKILLS_STATE_KEY).toBe(CORE_KEY);
  });

  it.each<SkillDriftPolicy>(["reload", "keep"])(
    "reads what createAgent + middleware stored; a removed skill is unloaded by the runtime under %s",
    async (onDrift) => {
      const folder = skillsFolder(["alpha", "beta"]);
      const registry = await createSkillRegistry({ sources: [skillsFromDirectory(folder)] });
      const dir = mkdtempSync(join(tmpdir(), "sg-contract-db-"));
      dirs.push(dir);
      const saver = await createCheckpointer(`sqlite:${join(dir, "sessions.db")}`);
      const model = new RecordingChatModel([
        callTool("read_skill", { name: "alpha" }),
        callTool("read_skill", { name: "beta" }),
        answer("ok"),
        answer("again"),
      ]);
      const agent = createAgent({
        model,
        tools: [],
        checkpointer: saver,
        middleware: [createSkillsMiddleware({ skills: registry, agentId: "writer", loadMode: "session", onDrift })],
      });
      const config = { configurable: { thread_id: "contract" } };
      await agent.invoke({ messages: [new HumanMessage("load both")] }, config);

      const stored = await inspectSession(saver, "contract", registry);
      expect(stored.loadedSkills.map((skill) => [skill.agentId, skill.name])).toEqual([
        ["writer", "alpha"],
        ["writer", "beta"],
      ]);
      expect(stored.drift).toEqual([]);

      rmSync(join(folder, "beta"), { recursive: true });
      await registry.reload();
      expect((await inspectSession(saver, "contract", registry)).drift.map((d) => [d.agentId, d.name, d.kind])).toEqual(
        [["writer", "beta", "removed"]],
      );

      await agent.invoke({ messages: [new HumanMessage("go on")] }, config);
      const after = await inspectSession(saver, "contract", registry);
      expect(after.loadedSkills.map((skill) => skill.name)).toEqual(["alpha"]);
      expect(after.drift).toEqual([]);
      await closeCheckpointer(saver);
    },
  );
});
