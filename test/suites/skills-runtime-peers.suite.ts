import {
  HumanMessage,
  MemorySaver,
  tool,
  ToolMessage,
  z,
  type BaseMessage,
  type StructuredToolInterface,
} from "../../packages/langgraph/src/__fixtures__/langchain.js";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getLoadedSkills, type SkillsEvent, type SkillsRuntimeOptions } from "../../packages/langgraph/src/index.js";
import {
  answer,
  callTool,
  RecordingChatModel,
  type ScriptedReply,
} from "../../packages/langgraph/src/__fixtures__/recording-chat-model.js";
import {
  createSkillRegistry,
  createTestTools,
  skillsFromDirectory,
  type SkillRegistry,
} from "../../packages/langgraph/src/__fixtures__/test-skills.js";
import { skillsFromCode, skillsFromFolders } from "../../packages/core/src/index.js";
import type { SkillsRuntimeAgent, SkillsRuntimeSetup } from "./skills-runtime.suite.js";

/**
 * What users of the other skills runtimes expect, on every wiring: spring-ai-alibaba's `skill_path`, registry-wide
 * disable and layered listing, Strands' activation through a generic file read, skills added to a running agent from
 * a new folder, and `allowed-tools` as a restriction (`restrictTools`).
 */
export function describeSkillsRuntimePeers({
  name,
  createAgent,
}: {
  name: string;
  createAgent: (setup: SkillsRuntimeSetup) => SkillsRuntimeAgent;
}): void {
  describe(`skills runtime, features of other runtimes: ${name}`, () => {
    let dir = "";
    let registry: SkillRegistry;
    let thread = 0;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "skills-peers-"));
      const skill = async (folder: string, front: string, body: string) => {
        await mkdir(join(dir, folder), { recursive: true });
        await writeFile(join(dir, folder, "SKILL.md"), `---\n${front}\n---\n${body}\n`);
      };
      await skill("user/atlas", "name: atlas\ndescription: Maps and places.", "ATLAS BODY");
      await skill("project/globe", "name: globe\ndescription: Globes.\nallowed-tools: make_pdf", "GLOBE BODY");
      await writeFile(join(dir, "project", "globe", "extra.md"), "not the skill file");
      registry = await createSkillRegistry({
        sources: [
          skillsFromDirectory(join(dir, "user"), { layer: "user" }),
          skillsFromDirectory(join(dir, "project"), { layer: "project" }),
          skillsFromCode([{ name: "notes", description: "Take notes.", body: "NOTES BODY" }]),
        ],
      });
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    function build(
      script: ScriptedReply[],
      options: Partial<SkillsRuntimeOptions> = {},
      tools: StructuredToolInterface[] = [],
    ) {
      const model = new RecordingChatModel(script);
      const testTools = createTestTools();
      const agent = createAgent({
        model,
        skillsOptions: { skills: registry, tools: [testTools.makePdf], ...options },
        tools: [testTools.noop, ...tools],
        systemPrompt: "You are a test assistant.",
        checkpointer: new MemorySaver(),
      });
      const config = { configurable: { thread_id: `peers-${++thread}` } };
      const say = (text: string, threadId?: string) =>
        agent.invoke(
          { messages: [new HumanMessage(text)] },
          threadId ? { configurable: { thread_id: threadId } } : config,
        );
      const state = async (threadId?: string) =>
        (await agent.getState(threadId ? { configurable: { thread_id: threadId } } : config)).values;
      return { agent, model, say, state, runs: testTools.runs, config };
    }
    const toolText = (messages: BaseMessage[]) =>
      messages
        .filter((message) => message.getType() === "tool")
        .map((message) => message.text)
        .join("\n");

    it("loads a skill by spring's skill_path argument", async () => {
      const { model, say, state } = await build([
        callTool("read_skill", { skill_path: join(dir, "user", "atlas", "SKILL.md") }),
        answer(),
      ]);
      await say("maps");
      expect(toolText(model.calls[1]!.messages)).toContain("ATLAS BODY");
      expect(getLoadedSkills(await state()).map((entry) => entry.name)).toEqual(["atlas"]);
    });

    it("refuses a name and a path naming different skills, saying so, and loads nothing", async () => {
      const { model, say, state } = await build([
        callTool("read_skill", { name: "atlas", path: join(dir, "project", "globe") }),
        answer(),
      ]);
      await say("maps");
      const reply = toolText(model.calls[1]!.messages);
      expect(reply).toContain("read_skill was given name 'atlas' and path");
      expect(reply).toContain("names a different skill ('globe')");
      expect(reply).not.toContain("ATLAS BODY");
      expect(getLoadedSkills(await state())).toEqual([]);
    });

    it("accepts a name and the path of that same skill", async () => {
      const { say, state } = await build([
        callTool("read_skill", { name: "globe", path: join(dir, "project", "globe", "SKILL.md") }),
        answer(),
      ]);
      await say("globes");
      expect(getLoadedSkills(await state()).map((entry) => entry.name)).toEqual(["globe"]);
    });

    it("disables a skill for every thread and every agent sharing the app's set with allowDisableSkill 'app'", async () => {
      const disabledSkills = new Set<string>();
      const first = build([callTool("disable_skill", { name: "atlas" }), answer(), answer()], {
        allowDisableSkill: "app",
        disabledSkills,
      });
      await first.say("no maps please");
      expect(toolText(first.model.calls[1]!.messages)).toContain("disabled for every agent and conversation");
      expect([...disabledSkills]).toEqual(["atlas"]);
      await first.say("hello", "another-thread");
      expect(first.model.last.system).not.toContain("<name>\natlas");
      const other = build([callTool("read_skill", { name: "atlas" }), answer()], { disabledSkills, agentId: "other" });
      await other.say("maps");
      expect(other.model.calls[0]!.system).not.toContain("<name>\natlas");
      expect(toolText(other.model.calls[1]!.messages)).toContain("Skill 'atlas' is disabled by the application.");
      disabledSkills.delete("atlas");
      await other.say("maps again");
      expect(other.model.last.system).toContain("<name>\natlas");
    });

    it("groups the skills list by layer when asked", async () => {
      const { model, say } = await build([answer()], { prompt: { format: "markdown", groupByLayer: true } });
      await say("hi");
      const system = model.last.system;
      const order = [
        "### User skills",
        "**atlas**",
        "### Project skills",
        "**globe**",
        "### Skills from other sources",
        "**notes**",
      ];
      const positions = order.map((text) => system.indexOf(text));
      expect(positions.every((position) => position >= 0)).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    });

    it("keeps the cap when parallel loads of one step go over it: the next model request evicts before the model sees both", async () => {
      const { model, say, state } = await build(
        [
          {
            toolCalls: [
              { name: "read_skill", args: { name: "atlas" } },
              { name: "read_skill", args: { name: "notes" } },
            ],
          },
          answer(),
        ],
        { maxLoadedSkills: 1 },
      );
      await say("both");
      const loaded = getLoadedSkills(await state()).map((entry) => entry.name);
      expect(loaded).toHaveLength(1);
      // The request after the step already had only one of them loaded (the other's result points to read_skill).
      const seen = toolText(model.calls[1]!.messages);
      expect([seen.includes("ATLAS BODY"), seen.includes("NOTES BODY")].filter(Boolean)).toHaveLength(1);
    });

    it("loads a skill whose SKILL.md the model read with a generic read_file tool, unlocking its tools", async () => {
      const readFileTool = tool(async ({ file_path }) => readFile(file_path, "utf8"), {
        name: "read_file",
        description: "Read a file.",
        schema: z.object({ file_path: z.string() }),
      });
      const events: SkillsEvent[] = [];
      const { agent, model, state, runs, config } = await build(
        [
          callTool("make_pdf", { title: "too early" }),
          callTool("read_file", { file_path: join(dir, "project", "globe", "SKILL.md") }),
          callTool("make_pdf", { title: "T" }),
          answer(),
        ],
        {},
        [readFileTool],
      );
      const stream = await agent.stream(
        { messages: [new HumanMessage("a globe pdf")] },
        { ...config, streamMode: "custom" },
      );
      for await (const chunk of stream) {
        const event = (chunk as { skillgraph?: SkillsEvent }).skillgraph;
        if (event) events.push(event);
      }
      expect(runs.make_pdf).toBe(1);
      expect(toolText(model.calls[1]!.messages)).toContain("belongs to skill 'globe', which is not loaded");
      expect(toolText(model.calls[2]!.messages)).toContain("GLOBE BODY");
      expect(model.calls[2]!.tools).toContain("make_pdf");
      expect(getLoadedSkills(await state()).map((entry) => [entry.name, entry.mode])).toEqual([["globe", "session"]]);
      expect(events).toContainEqual(expect.objectContaining({ type: "skill-loaded", skill: "globe" }));
    });

    it("adds skills from a new folder to a running agent: the same agent and thread list and load them after reload()", async () => {
      const folders = skillsFromFolders([join(dir, "user")]);
      const growing = await createSkillRegistry({ sources: [folders] });
      const { model, say, state, config } = build(
        [answer("first"), callTool("read_skill", { name: "globe" }), answer("second")],
        { skills: growing },
      );
      await say("hello");
      expect(model.calls[0]!.system).not.toContain("globe");
      await folders.add(join(dir, "project"));
      await growing.reload();
      await say("globes please", config.configurable.thread_id);
      expect(model.calls[1]!.system).toContain("globe");
      expect(toolText(model.calls[2]!.messages)).toContain("GLOBE BODY");
      expect(getLoadedSkills(await state()).map((entry) => entry.name)).toEqual(["globe"]);
      await expect(folders.add(join(dir, "no-such-folder"))).rejects.toThrow(/no-such-folder/);
    });

    it("leaves tools no skill names usable while a skill is loaded, and blocks them with restrictTools: true", async () => {
      const script = [callTool("read_skill", { name: "globe" }), callTool("noop", {}), answer()];
      const open = build(script);
      await open.say("globe");
      expect(open.runs.noop).toBe(1);
      const strict = build(script, { restrictTools: true });
      await strict.say("globe");
      expect(strict.runs.noop).toBe(0);
      expect(toolText(strict.model.calls[2]!.messages)).toContain(
        "Tool 'noop' is not allowed while skill 'globe' is active",
      );
    });

    it("does not load a skill when the generic read failed, or read another file, or with fileReadTools: []", async () => {
      const failing = tool(
        async (_input: { file_path: string }, config: { toolCall?: { id?: string } }) =>
          new ToolMessage({ content: "cannot read it", status: "error", tool_call_id: config.toolCall?.id ?? "" }),
        { name: "read_file", description: "Read a file.", schema: z.object({ file_path: z.string() }) },
      );
      const globe = join(dir, "project", "globe", "SKILL.md");
      const failed = build([callTool("read_file", { file_path: globe }), answer()], {}, [failing]);
      await failed.say("globe");
      expect(getLoadedSkills(await failed.state())).toEqual([]);
      const readFileTool = tool(async ({ file_path }) => readFile(file_path, "utf8"), {
        name: "read_file",
        description: "Read a file.",
        schema: z.object({ file_path: z.string() }),
      });
      const off = build([callTool("read_file", { file_path: globe }), answer()], { fileReadTools: [] }, [readFileTool]);
      await off.say("globe");
      expect(getLoadedSkills(await off.state())).toEqual([]);
      const elsewhere = build(
        [callTool("read_file", { file_path: join(dir, "project", "globe", "extra.md") }), answer()],
        {},
        [readFileTool],
      );
      await elsewhere.say("globe");
      expect(getLoadedSkills(await elsewhere.state())).toEqual([]);
    });
  });
}
