import {
  Command,
  HumanMessage,
  interrupt,
  MemorySaver,
  RemoveMessage,
  tool,
  ToolMessage,
  z,
  type BaseCheckpointSaver,
  type BaseMessage,
  type RunnableConfig,
  type StructuredToolInterface,
} from "../../packages/langgraph/src/__fixtures__/langchain.js";
import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createShellHook } from "../../packages/shell/src/index.js";
import { closeCheckpointer, createCheckpointer } from "../../packages/checkpoint/src/index.js";
import {
  getLoadedSkills,
  type SkillsEvent,
  type SkillsRuntimeOptions,
  type SkillsToolHook,
} from "../../packages/langgraph/src/index.js";
import {
  answer,
  callTool,
  RecordingChatModel,
  type ScriptedReply,
} from "../../packages/langgraph/src/__fixtures__/recording-chat-model.js";
import {
  createSkillRegistry,
  createTestRegistry,
  createTestTools,
  skillsFromDirectory,
} from "../../packages/langgraph/src/__fixtures__/test-skills.js";

/** What a wiring receives to build one agent. */
export interface SkillsRuntimeSetup {
  model: RecordingChatModel;
  /** Interceptor / middleware options. */
  skillsOptions: SkillsRuntimeOptions;
  /** The agent's always-on tools. */
  tools: StructuredToolInterface[];
  systemPrompt: string;
  checkpointer: BaseCheckpointSaver;
}

/** The part of a compiled graph / ReactAgent the suite drives. */
export interface SkillsRuntimeAgent {
  /** The compiled graph's state snapshot (`next` lists the nodes a paused run resumes at). */
  getState(config: RunnableConfig): Promise<{ values: unknown; next?: readonly string[] }>;
  /** Writes to the thread's state as if a node had (trimming history with RemoveMessage here). */
  updateState(config: RunnableConfig, values: Record<string, unknown>, asNode?: string): Promise<unknown>;
  invoke(input: { messages: BaseMessage[] } | Command, config: RunnableConfig): Promise<unknown>;
  stream(
    input: { messages: BaseMessage[] },
    config: RunnableConfig & { streamMode: "custom" | Array<"custom" | "values"> },
  ): Promise<AsyncIterable<unknown>>;
}

const SYSTEM = "You are a test assistant.";

/**
 * The behaviour every wiring of the skills runtime must show, written once: what the model receives at each step,
 * gating, load modes, the cap, events, drift and checkpoint resume.
 */
export function describeSkillsRuntime({
  name,
  createAgent,
}: {
  name: string;
  createAgent: (setup: SkillsRuntimeSetup) => SkillsRuntimeAgent;
}): void {
  describe(`skills runtime: ${name}`, () => {
    let threadCounter = 0;
    async function build(
      script: ScriptedReply[],
      options: Partial<SkillsRuntimeOptions> = {},
      extra: {
        checkpointer?: BaseCheckpointSaver;
        skills?: SkillsRuntimeOptions["skills"];
        tools?: StructuredToolInterface[];
      } = {},
    ) {
      const registry = extra.skills ?? (await createTestRegistry());
      const testTools = createTestTools();
      const model = new RecordingChatModel(script);
      const checkpointer = extra.checkpointer ?? new MemorySaver();
      const skillsOptions: SkillsRuntimeOptions = {
        skills: registry,
        tools: [testTools.makePdf],
        skillTools: { weather: [testTools.getForecast] },
        ...options,
      };
      const agent = createAgent({
        model,
        skillsOptions,
        tools: [testTools.noop, ...(extra.tools ?? [])],
        systemPrompt: SYSTEM,
        checkpointer,
      });
      const config = { configurable: { thread_id: `thread-${++threadCounter}` } };
      const say = (text: string, more: RunnableConfig = {}) =>
        agent.invoke(
          { messages: [new HumanMessage(text)] },
          { ...config, ...more, configurable: { ...config.configurable, ...more.configurable } },
        );
      const state = async () => (await agent.getState(config)).values as Record<string, unknown>;
      return { agent, model, registry, runs: testTools.runs, config, say, state, checkpointer, testTools };
    }
    const toolText = (messages: BaseMessage[]) =>
      messages.filter((message) => message.getType() === "tool").map((message) => message.text);

    it("appends the skills list to the agent's own system prompt and offers the skills tools, not locked skill tools", async () => {
      const { model, say } = await build([answer()]);
      await say("hi");
      expect(model.calls).toHaveLength(1);
      expect(model.last.system.startsWith(SYSTEM)).toBe(true);
      for (const skill of ["pdf-tools", "weather", "notes", "git-helper"]) expect(model.last.system).toContain(skill);
      expect(model.last.tools).toEqual(
        expect.arrayContaining(["noop", "read_skill", "read_skill_file", "search_skills", "list_skill_files"]),
      );
      expect(model.last.tools).not.toContain("make_pdf");
      expect(model.last.tools).not.toContain("get_forecast");
    });

    it("serves the body of a read skill in the request and unlocks its tools, without storing the body in state", async () => {
      const { model, say, state, runs } = await build(
        [callTool("read_skill", { name: "pdf-tools" }), callTool("make_pdf", { title: "T" }), answer()],
        { loadMode: "session" },
      );
      await say("make a pdf");
      const second = model.calls[1]!;
      expect(toolText(second.messages).join("\n")).toContain("PDF BODY");
      expect(toolText(second.messages).join("\n")).toContain("references/api.md");
      expect(second.tools).toContain("make_pdf");
      expect(runs.make_pdf).toBe(1);
      const values = await state();
      expect(getLoadedSkills(values).map((entry) => entry.name)).toEqual(["pdf-tools"]);
      expect(JSON.stringify(values.skillgraph)).not.toContain("PDF BODY");
      const stored = (values.messages as BaseMessage[])
        .filter((message) => message.getType() === "tool")
        .map((message) => message.text);
      expect(stored.join("\n")).not.toContain("PDF BODY");
    });

    it("stores the tool results it passes on without marker objects for their unset fields", async () => {
      const { say, runs, checkpointer, config } = await build(
        [
          callTool("noop", {}),
          callTool("get_forecast", { city: "Oslo" }),
          callTool("read_skill", { name: "pdf-tools" }),
          callTool("make_pdf", { title: "T" }),
          callTool("read_skill_file", { name: "pdf-tools", path: "references/api.md" }),
          answer(),
        ],
        { loadMode: "session" },
      );
      await say("go");
      expect([runs.noop, runs.make_pdf, runs.get_forecast]).toEqual([1, 1, 0]);
      // the saver's bytes as this run wrote them: read back, a marker is dropped, so reading the state would not tell
      const stored = (checkpointer as MemorySaver).storage[config.configurable.thread_id]![""]!;
      const latest = Object.keys(stored).sort().at(-1)!;
      const checkpoint = JSON.parse(new TextDecoder().decode(stored[latest]![0])) as {
        channel_values: { messages: Array<{ id: string[]; kwargs: Record<string, unknown> }> };
      };
      const results = checkpoint.channel_values.messages.filter((message) => message.id.at(-1) === "ToolMessage");
      expect(results).toHaveLength(5);
      for (const result of results)
        expect(JSON.stringify(result.kwargs), String(result.kwargs.name)).not.toContain('"type":"undefined"');
    });

    it("answers a call to a skill tool whose skill is not loaded with an error and never runs it", async () => {
      const { model, say, runs } = await build([callTool("make_pdf", { title: "T" }), answer()]);
      await say("make a pdf");
      expect(runs.make_pdf).toBe(0);
      const reply = toolText(model.calls[1]!.messages).join("\n");
      expect(reply).toContain("pdf-tools");
      expect(reply).toContain("read_skill");
    });

    it("tells a model that calls a skill's name as a tool to use read_skill", async () => {
      const { model, say } = await build([callTool("notes", {}), answer()]);
      await say("take a note");
      expect(toolText(model.calls[1]!.messages).join("\n")).toMatch(/'notes' is a skill, not a tool.*read_skill/);
    });

    it("runs a tool from the skillTools map only once its skill is loaded", async () => {
      const { say, runs } = await build([
        callTool("get_forecast", { city: "Oslo" }),
        callTool("read_skill", { name: "weather" }),
        callTool("get_forecast", { city: "Oslo" }),
        answer(),
      ]);
      await say("weather?");
      expect(runs.get_forecast).toBe(1);
    });

    it("drops turn skills when the turn ends and replaces their old result with a note", async () => {
      const { model, say, state } = await build(
        [callTool("read_skill", { name: "notes" }), answer("first"), answer("second")],
        { loadMode: "turn" },
      );
      await say("one");
      expect(getLoadedSkills(await state())).toEqual([]);
      await say("two");
      const old = toolText(model.last.messages).join("\n");
      expect(old).not.toContain("NOTES BODY");
      expect(old).toContain("no longer loaded: it was loaded for one turn (load mode 'turn') and that turn ended");
    });

    it("keeps a read skill and its tools for a follow-up question by default (session mode), loaded after the call", async () => {
      const { model, say, state, runs } = await build([
        callTool("read_skill", { name: "pdf-tools" }),
        answer("first"),
        callTool("make_pdf", { title: "again" }),
        answer("second"),
      ]);
      await say("make a pdf");
      const after = getLoadedSkills(await state());
      expect(after.map((entry) => [entry.name, entry.mode])).toEqual([["pdf-tools", "session"]]);
      await say("and another one with the same settings");
      expect(model.calls[2]!.tools).toContain("make_pdf");
      expect(toolText(model.calls[2]!.messages).join("\n")).toContain("PDF BODY");
      expect(runs.make_pdf).toBe(1);
    });

    it("keeps session skills across turns", async () => {
      const { model, say, state } = await build(
        [callTool("read_skill", { name: "notes" }), answer("first"), answer("second")],
        { loadModes: { notes: "session" } },
      );
      await say("one");
      await say("two");
      expect(getLoadedSkills(await state()).map((entry) => entry.name)).toEqual(["notes"]);
      expect(toolText(model.last.messages).join("\n")).toContain("NOTES BODY");
    });

    it("shows a once skill in exactly the next model request", async () => {
      const { model, say } = await build([callTool("read_skill", { name: "notes" }), callTool("noop"), answer()], {
        loadMode: "once",
      });
      await say("one");
      expect(toolText(model.calls[1]!.messages).join("\n")).toContain("NOTES BODY");
      expect(toolText(model.calls[2]!.messages).join("\n")).not.toContain("NOTES BODY");
    });

    for (const loadMode of ["turn", "once", "session"] as const) {
      it(`runs a skill's script in the turn it was read (loadMode ${loadMode})`, async () => {
        const registry = await createSkillRegistry({
          sources: [skillsFromDirectory(fileURLToPath(new URL("../../examples/skills", import.meta.url)))],
        });
        const shell = createShellHook({ skills: registry, executor: "local" });
        try {
          const { model, say } = await build(
            [
              callTool("read_skill", { name: "report-builder" }),
              callTool("run_skill_script", {
                skill: "report-builder",
                command: "scripts/build-report.mjs in/sales.csv",
                files: [{ path: "in/sales.csv", content: "region,units\nNorth,3\n" }],
              }),
              callTool("noop"),
              answer(),
            ],
            { loadMode, hooks: [shell] },
            { skills: registry },
          );
          await say("build the report");
          expect(model.calls[1]!.tools).toContain("run_skill_script");
          const result = JSON.parse(toolText(model.calls[2]!.messages).at(-1)!) as { status: string; stdout: string };
          expect(result).toMatchObject({ status: "ok", stdout: "wrote out/report.md: 1 rows, 2 columns\n" });
          // a once skill's body is shown in one request only; its tools stay for the rest of the turn
          if (loadMode === "once")
            expect(toolText(model.calls[2]!.messages).join("\n")).not.toContain("# Report builder");
        } finally {
          await shell.dispose();
        }
      });
    }

    it("evicts the least recently used skill beyond maxLoadedSkills and reports it on the custom stream", async () => {
      const { agent, config, state, model } = await build(
        [callTool("read_skill", { name: "notes" }), callTool("read_skill", { name: "weather" }), answer()],
        { maxLoadedSkills: 1, loadMode: "session" },
      );
      const events: SkillsEvent[] = [];
      for await (const chunk of await agent.stream(
        { messages: [new HumanMessage("go")] },
        { ...config, streamMode: "custom" },
      )) {
        const event = (chunk as { skillgraph?: SkillsEvent }).skillgraph;
        if (event) events.push(event);
      }
      expect(getLoadedSkills(await state()).map((entry) => entry.name)).toEqual(["weather"]);
      expect(events).toContainEqual(expect.objectContaining({ type: "skill-loaded", skill: "notes" }));
      expect(events).toContainEqual(expect.objectContaining({ type: "skill-evicted", skill: "notes" }));
      // The model is told why notes' instructions are gone: the cap, not just "no longer loaded".
      expect(toolText(model.last.messages).join("\n")).toContain(
        "no longer loaded: evicted to keep at most 1 skill loaded (maxLoadedSkills",
      );
    });

    it("emits blocked tool calls on the custom stream", async () => {
      const { agent, config } = await build([callTool("make_pdf", { title: "x" }), answer()]);
      const events: SkillsEvent[] = [];
      for await (const chunk of await agent.stream(
        { messages: [new HumanMessage("go")] },
        { ...config, streamMode: "custom" },
      )) {
        const event = (chunk as { skillgraph?: SkillsEvent }).skillgraph;
        if (event) events.push(event);
      }
      expect(events).toContainEqual(expect.objectContaining({ type: "tool-blocked", tool: "make_pdf" }));
    });

    it("keeps loaded skills across a checkpoint resume with a new agent instance on the same thread", async () => {
      const checkpointer = new MemorySaver();
      const registry = await createTestRegistry();
      const first = await build(
        [callTool("read_skill", { name: "pdf-tools" }), answer()],
        { loadMode: "session" },
        { checkpointer, skills: registry },
      );
      await first.say("load it");
      const testTools = createTestTools();
      const model = new RecordingChatModel([callTool("make_pdf", { title: "again" }), answer()]);
      const second = createAgent({
        model,
        skillsOptions: { skills: registry, tools: [testTools.makePdf] },
        tools: [testTools.noop],
        systemPrompt: SYSTEM,
        checkpointer,
      });
      await second.invoke({ messages: [new HumanMessage("again")] }, first.config);
      expect(toolText(model.calls[0]!.messages).join("\n")).toContain("PDF BODY");
      expect(model.calls[0]!.tools).toContain("make_pdf");
      expect(testTools.runs.make_pdf).toBe(1);
    });

    it("serves a changed skill's new body with a note after a registry reload, and unloads a removed one", async () => {
      const dir = await mkdtemp(join(tmpdir(), "skills-drift-"));
      try {
        const write = async (skill: string, body: string) => {
          await mkdir(join(dir, skill), { recursive: true });
          await writeFile(
            join(dir, skill, "SKILL.md"),
            `---\nname: ${skill}\ndescription: The ${skill} skill.\n---\n\n${body}\n`,
          );
        };
        await write("alpha", "ALPHA V1");
        await write("beta", "BETA V1");
        const registry = await createSkillRegistry({ sources: [skillsFromDirectory(dir)] });
        const { model, say } = await build(
          [callTool("read_skill", { name: "alpha" }), callTool("read_skill", { name: "beta" }), answer(), answer()],
          { loadMode: "session" },
          { skills: registry },
        );
        await say("load");
        await write("alpha", "ALPHA V2 (changed)");
        await rm(join(dir, "beta"), { recursive: true });
        await registry.reload();
        await say("again");
        const seen = toolText(model.last.messages).join("\n");
        expect(seen).toContain("ALPHA V2");
        expect(seen).not.toContain("ALPHA V1");
        expect(seen).toContain("changed since it was loaded");
        expect(seen).not.toContain("BETA V1");
        expect(seen).toContain("removed from the skill registry");
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it("lists every skill tool from the start in static exposure but still gates execution", async () => {
      const { model, say, runs } = await build([callTool("make_pdf", { title: "x" }), answer()], {
        toolExposure: "static",
      });
      await say("go");
      expect(model.calls[0]!.tools).toContain("make_pdf");
      expect(model.calls[0]!.tools).toContain("get_forecast");
      expect(runs.make_pdf).toBe(0);
    });

    it("keeps the tool list byte-stable in dispatcher exposure and runs unlocked tools through call_skill_tool", async () => {
      const { model, say, runs } = await build(
        [
          callTool("call_skill_tool", { tool: "make_pdf", arguments: { title: "early" } }),
          callTool("read_skill", { name: "pdf-tools" }),
          callTool("call_skill_tool", { tool: "make_pdf", arguments: { title: "T" } }),
          answer(),
        ],
        { toolExposure: "dispatcher" },
      );
      await say("go");
      expect(runs.make_pdf).toBe(1);
      const lists = model.calls.map((call) => JSON.stringify(call.tools));
      expect(new Set(lists).size).toBe(1);
      expect(model.calls[0]!.tools).toContain("call_skill_tool");
      expect(toolText(model.calls[2]!.messages).join("\n")).toContain("arguments (JSON schema)");
    });

    it("puts loaded bodies in the system prompt when bodyPlacement is system-prompt", async () => {
      const { model, say } = await build([callTool("read_skill", { name: "notes" }), answer()], {
        bodyPlacement: "system-prompt",
      });
      await say("go");
      expect(model.calls[0]!.system).not.toContain("NOTES BODY");
      expect(model.calls[1]!.system).toContain("NOTES BODY");
      expect(toolText(model.calls[1]!.messages).join("\n")).not.toContain("NOTES BODY");
    });

    it("runs only the declared allowed-tools while a restricting skill is active in restrict mode", async () => {
      const { say, runs, model } = await build(
        [callTool("read_skill", { name: "pdf-tools" }), callTool("noop"), answer()],
        { restrictTools: true },
      );
      await say("go");
      expect(runs.noop).toBe(0);
      expect(toolText(model.calls[2]!.messages).join("\n")).toContain("not allowed while skill 'pdf-tools' is active");
    });

    it("narrows the skills per invocation from configurable.skills", async () => {
      const { model, say } = await build([callTool("read_skill", { name: "weather" }), answer()]);
      await say("go", { configurable: { skills: { only: ["notes", "pdf-tools"] } } });
      expect(model.calls[0]!.system).toContain("notes");
      expect(model.calls[0]!.system).not.toContain("weather");
      expect(toolText(model.calls[1]!.messages).join("\n")).toContain("not found");
    });

    it("reads a skill file and refuses a path leaving the skill", async () => {
      const { model, say } = await build([
        callTool("read_skill_file", { name: "pdf-tools", path: "references/api.md" }),
        callTool("read_skill_file", { name: "pdf-tools", path: "../weather/SKILL.md" }),
        answer(),
      ]);
      await say("go");
      expect(toolText(model.calls[1]!.messages)).toContain("PDF API DOC");
      expect(toolText(model.calls[2]!.messages)[1]).toMatch(/Cannot read/);
    });

    it("loads two skills requested by parallel tool calls of one step", async () => {
      const { model, say, state } = await build(
        [
          {
            toolCalls: [
              { name: "read_skill", args: { name: "notes" } },
              { name: "read_skill", args: { name: "weather" } },
            ],
          },
          answer(),
        ],
        { loadMode: "session" },
      );
      await say("go");
      expect(
        getLoadedSkills(await state())
          .map((entry) => entry.name)
          .sort(),
      ).toEqual(["notes", "weather"]);
      const seen = toolText(model.calls[1]!.messages).join("\n");
      expect(seen).toContain("NOTES BODY");
      expect(seen).toContain("WEATHER BODY");
    });

    it("reports skill loads as callback custom events (traces)", async () => {
      const { say } = await build([callTool("read_skill", { name: "notes" }), answer()]);
      const seen: Array<{ name: string; data: SkillsEvent }> = [];
      await say("go", {
        callbacks: [
          {
            handleCustomEvent: (eventName: string, data: unknown) =>
              void seen.push({ name: eventName, data: data as SkillsEvent }),
          },
        ],
      });
      expect(seen).toContainEqual({
        name: "skillgraph",
        data: expect.objectContaining({ type: "skill-loaded", skill: "notes" }),
      });
    });

    it("shows and authorises a hook's tools according to the loaded skills", async () => {
      const calls: string[] = [];
      const shell = tool(
        async ({ command }: { command: string }) => {
          calls.push(command);
          return "ran";
        },
        { name: "shell", description: "Run a command.", schema: z.object({ command: z.string() }) },
      );
      const hook: SkillsToolHook = {
        name: "test-shell",
        tools: [shell],
        visibleTools: (context) => (context.loadedSkills.some((skill) => skill.name === "git-helper") ? ["shell"] : []),
        authorize: (call) =>
          (call.args as { command: string }).command.startsWith("git ")
            ? { allowed: true }
            : { allowed: false, reason: "only git commands" },
      };
      const { model, say } = await build(
        [
          callTool("shell", { command: "git status" }),
          callTool("read_skill", { name: "git-helper" }),
          callTool("shell", { command: "rm -rf /" }),
          callTool("shell", { command: "git log" }),
          answer(),
        ],
        { hooks: [hook] },
      );
      await say("go");
      expect(model.calls[0]!.tools).not.toContain("shell");
      expect(model.calls[2]!.tools).toContain("shell");
      expect(calls).toEqual(["git log"]);
      expect(toolText(model.calls[3]!.messages).join("\n")).toContain("only git commands");
    });

    it("unloads and hides a skill for this thread only with disable_skill", async () => {
      const { model, say, state } = await build(
        [callTool("read_skill", { name: "notes" }), callTool("disable_skill", { name: "notes" }), answer()],
        { allowDisableSkill: true, loadMode: "session" },
      );
      await say("go");
      expect(getLoadedSkills(await state())).toEqual([]);
      expect(model.calls[2]!.system).not.toContain("notes");
      expect(model.calls[0]!.tools).toContain("disable_skill");
    });

    it("pauses on interrupt() inside an ordinary tool and resumes it with Command({ resume })", async () => {
      const asked: unknown[] = [];
      const approve = tool(
        async ({ action }: { action: string }) => {
          const answer = interrupt({ question: `Run ${action}?` });
          asked.push(answer);
          return `approval for ${action}: ${String(answer)}`;
        },
        {
          name: "ask_approval",
          description: "Ask the user to approve an action.",
          schema: z.object({ action: z.string() }),
        },
      );
      const { agent, model, say, config } = await build(
        [callTool("ask_approval", { action: "deploy" }), answer("finished")],
        {},
        { tools: [approve] },
      );
      const paused = (await say("deploy please")) as { __interrupt__?: Array<{ value: unknown }> };
      expect(paused.__interrupt__?.[0]?.value).toEqual({ question: "Run deploy?" });
      expect((await agent.getState(config)).next?.length).toBeGreaterThan(0);
      expect(model.calls).toHaveLength(1);
      await agent.invoke(new Command({ resume: "yes" }), config);
      expect(asked).toEqual(["yes"]);
      expect(toolText(model.calls[1]!.messages).join("\n")).toContain("approval for deploy: yes");
      expect(model.calls).toHaveLength(2);
    });

    it("pauses a gated hook tool on its approval interrupt and resumes it (approve, then deny)", async () => {
      const ran: string[] = [];
      const shell = tool(
        async ({ command }: { command: string }) => {
          const decision = interrupt({ approve: command });
          if (decision !== "approve") return `denied: ${command}`;
          ran.push(command);
          return `ran: ${command}`;
        },
        { name: "shell", description: "Run a command.", schema: z.object({ command: z.string() }) },
      );
      const hook: SkillsToolHook = {
        name: "approval-shell",
        tools: [shell],
        visibleTools: (context) => (context.loadedSkills.length > 0 ? ["shell"] : []),
      };
      const { agent, model, say, config, runs } = await build(
        [
          callTool("read_skill", { name: "git-helper" }),
          {
            toolCalls: [
              { name: "shell", args: { command: "git push" } },
              { name: "noop", args: {} },
            ],
          },
          callTool("shell", { command: "git tag" }),
          answer(),
        ],
        { hooks: [hook], loadMode: "session" },
      );
      await say("push");
      expect(ran).toEqual([]);
      await agent.invoke(new Command({ resume: "approve" }), config);
      expect(ran).toEqual(["git push"]);
      await agent.invoke(new Command({ resume: "no" }), config);
      expect(ran).toEqual(["git push"]);
      expect(toolText(model.last.messages).join("\n")).toContain("denied: git tag");
      expect(runs.noop).toBeGreaterThanOrEqual(1);
      expect(toolText(model.calls[2]!.messages).join("\n")).toContain("ran: git push");
    });

    it("applies a Command returned by an ordinary tool", async () => {
      const setMood = tool(
        async ({ mood }: { mood: string }, config: { toolCall?: { id?: string } }) =>
          new Command({
            update: {
              messages: [
                new ToolMessage({
                  content: `mood is now ${mood}`,
                  tool_call_id: config.toolCall?.id ?? "",
                  name: "set_mood",
                }),
              ],
            },
          }),
        { name: "set_mood", description: "Set the mood.", schema: z.object({ mood: z.string() }) },
      );
      const { model, say } = await build([callTool("set_mood", { mood: "sunny" }), answer()], {}, { tools: [setMood] });
      await say("cheer up");
      expect(toolText(model.calls[1]!.messages).join("\n")).toContain("mood is now sunny");
    });

    it("answers a second read_skill of a loaded skill with its instructions again", async () => {
      const { model, say } = await build(
        [callTool("read_skill", { name: "notes" }), callTool("read_skill", { name: "notes" }), answer()],
        { loadMode: "session" },
      );
      await say("go");
      const [first, second] = toolText(model.calls[2]!.messages);
      expect(second).toContain("NOTES BODY");
      expect(second).toContain("already loaded");
      expect(first).not.toContain("NOTES BODY");
      expect(first).toContain("later read_skill result");
    });

    it("restores a loaded skill's body in the system prompt once its read_skill result left the history", async () => {
      const { agent, model, say, config, state } = await build(
        [callTool("read_skill", { name: "notes" }), answer("first"), answer("second"), answer("third")],
        { loadMode: "session" },
      );
      await say("one");
      await say("two");
      expect(model.calls[2]!.system).not.toContain("restored_skills");
      const normalSystem = model.calls[2]!.system;
      const messages = (await state()).messages as BaseMessage[];
      const gone = messages.filter(
        (message) =>
          message.getType() === "tool" ||
          (message.getType() === "ai" && ((message as { tool_calls?: unknown[] }).tool_calls?.length ?? 0) > 0),
      );
      expect(gone.length).toBe(2);
      await agent.updateState(config, { messages: gone.map((message) => new RemoveMessage({ id: message.id! })) });
      await say("three");
      expect(toolText(model.last.messages).join("\n")).not.toContain("NOTES BODY");
      expect(model.last.system).toContain("<restored_skills>");
      expect(model.last.system).toContain("NOTES BODY");
      expect(model.last.system.startsWith(normalSystem)).toBe(true);
      expect(getLoadedSkills(await state()).map((entry) => entry.name)).toEqual(["notes"]);
    });

    it("answers a tool call left dangling by a cancelled run when the thread resumes on a SQLite checkpointer", async () => {
      const dir = await mkdtemp(join(tmpdir(), "sg-dangling-"));
      const checkpointer = await createCheckpointer(`sqlite:${join(dir, "threads.db")}`);
      try {
        const abort = new AbortController();
        const hang = tool(
          async () => {
            abort.abort();
            return await new Promise<string>(() => undefined);
          },
          { name: "long_job", description: "A job that takes long.", schema: z.object({}) },
        );
        const first = await build([callTool("long_job", {})], {}, { checkpointer, tools: [hang] });
        await expect(first.say("start the job", { signal: abort.signal })).rejects.toThrow();
        const stored = (await first.state()).messages as BaseMessage[];
        expect(stored.at(-1)!.getType()).toBe("ai");
        const dangling = (stored.at(-1) as unknown as { tool_calls: Array<{ id: string }> }).tool_calls[0]!.id;
        const model = new RecordingChatModel([answer("recovered")]);
        const testTools = createTestTools();
        const resumed = createAgent({
          model,
          skillsOptions: { skills: first.registry },
          tools: [testTools.noop, hang],
          systemPrompt: SYSTEM,
          checkpointer,
        });
        await resumed.invoke({ messages: [new HumanMessage("what happened?")] }, first.config);
        const sent = model.calls[0]!.messages;
        const at = sent.findIndex(
          (message) => (message as { tool_calls?: Array<{ id: string }> }).tool_calls?.[0]?.id === dangling,
        );
        expect(sent[at + 1]!.getType()).toBe("tool");
        expect((sent[at + 1] as ToolMessage).tool_call_id).toBe(dangling);
        expect(sent[at + 1]!.text).toContain("cancelled");
        expect(sent.filter((message) => message.getType() === "tool")).toHaveLength(1);
        expect(sent.at(-1)!.text).toBe("what happened?");
      } finally {
        await closeCheckpointer(checkpointer);
        await rm(dir, { recursive: true, force: true });
      }
    });

    it("loads a skill with chosen reference files shown with its instructions, and drops them with the skill", async () => {
      const { model, say, state } = await build(
        [
          callTool("read_skill", { name: "pdf-tools", docs: ["references/api.md", "../weather/SKILL.md"] }),
          callTool("noop"),
          answer("first"),
          answer("second"),
        ],
        { loadMode: "turn" },
      );
      await say("one");
      const loaded = toolText(model.calls[1]!.messages).join("\n");
      expect(loaded).toContain("PDF BODY");
      expect(loaded).toContain("PDF API DOC");
      expect(loaded).toMatch(/Not selected: \.\.\/weather\/SKILL\.md/);
      const stored = JSON.stringify((await state()).messages);
      expect(stored).not.toContain("PDF API DOC");
      // The prompt-cache prefix: what the model saw at step 2 is sent byte for byte again at step 3.
      const prefix = (call: number) =>
        JSON.stringify(
          model.calls[call]!.messages.slice(0, model.calls[1]!.messages.length).map((message) => [
            message.getType(),
            message.text,
          ]),
        );
      expect(prefix(2)).toBe(prefix(1));
      await say("two");
      const after = toolText(model.last.messages).join("\n");
      expect(after).not.toContain("PDF API DOC");
      expect(after).toContain("no longer loaded");
    });

    it("replaces and clears a loaded skill's docs selection with a second read_skill", async () => {
      const { model, say, state } = await build(
        [
          callTool("read_skill", { name: "pdf-tools", include_all_docs: true }),
          callTool("read_skill", { name: "pdf-tools", docs: ["references/api.md"], docs_mode: "replace" }),
          callTool("read_skill", { name: "pdf-tools", docs_mode: "clear" }),
          answer(),
        ],
        { loadMode: "session" },
      );
      await say("go");
      expect(toolText(model.calls[1]!.messages).join("\n")).toContain("PDF API DOC");
      expect(toolText(model.calls[1]!.messages).join("\n")).not.toContain('scripts/run.sh">');
      expect(getLoadedSkills(await state())[0]!.docs).toEqual([]);
      const last = toolText(model.calls[3]!.messages);
      expect(last.join("\n")).not.toContain("PDF API DOC");
      expect(last.at(-1)).toContain("PDF BODY");
    });

    it("keeps a read_skill_file result while its skill is loaded and replaces it with a note once the skill unloads", async () => {
      const { model, say } = await build(
        [
          callTool("read_skill", { name: "pdf-tools" }),
          callTool("read_skill_file", { name: "pdf-tools", path: "references/api.md" }),
          answer("first"),
          answer("second"),
        ],
        { loadMode: "turn" },
      );
      await say("one");
      expect(toolText(model.calls[2]!.messages).join("\n")).toContain("PDF API DOC");
      await say("two");
      const after = toolText(model.last.messages).join("\n");
      expect(after).not.toContain("PDF API DOC");
      expect(after).toContain("File 'references/api.md' of skill 'pdf-tools' omitted");
    });

    it("loads a skill by its SKILL.md path as well as by name", async () => {
      const dir = await mkdtemp(join(tmpdir(), "skills-path-"));
      try {
        for (const skill of ["atlas", "globe"]) {
          await mkdir(join(dir, skill));
          await writeFile(
            join(dir, skill, "SKILL.md"),
            `---\nname: ${skill}\ndescription: The ${skill} skill.\n---\n\n${skill.toUpperCase()} BODY\n`,
          );
        }
        const registry = await createSkillRegistry({ sources: [skillsFromDirectory(dir)] });
        const script = [
          callTool("read_skill", { path: join(dir, "atlas", "SKILL.md") }),
          callTool("read_skill", { name: "globe/SKILL.md" }),
          callTool("read_skill", { path: "/etc/passwd" }),
          answer(),
        ];
        const { model, say, state } = await build(script, { loadMode: "session" }, { skills: registry });
        await say("go");
        const seen = toolText(model.calls[3]!.messages);
        expect(seen[0]).toContain("ATLAS BODY");
        expect(seen[1]).toContain("GLOBE BODY");
        expect(seen[2]).toMatch(/not found/);
        expect(
          getLoadedSkills(await state())
            .map((entry) => entry.name)
            .sort(),
        ).toEqual(["atlas", "globe"]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it("binds no skills tools while the registry is empty, and offers a skill folder added to the running agent", async () => {
      const dir = await mkdtemp(join(tmpdir(), "skills-empty-"));
      try {
        const registry = await createSkillRegistry({ sources: [skillsFromDirectory(dir)] });
        const { model, say } = await build(
          [answer("nothing yet"), callTool("read_skill", { name: "late" }), answer()],
          {},
          { skills: registry },
        );
        await say("one");
        expect(model.calls[0]!.tools).not.toContain("read_skill");
        expect(model.calls[0]!.tools).toContain("noop");
        await mkdir(join(dir, "late"));
        await writeFile(
          join(dir, "late", "SKILL.md"),
          "---\nname: late\ndescription: Added while the agent runs.\n---\n\nLATE BODY\n",
        );
        await registry.reload();
        await say("two");
        expect(model.calls[1]!.tools).toContain("read_skill");
        expect(model.calls[1]!.system).toContain("late");
        expect(toolText(model.calls[2]!.messages).join("\n")).toContain("LATE BODY");
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it("lets a custom eviction policy choose which skill leaves when the cap is reached", async () => {
      const evictNewest = ({ loaded }: { loaded: readonly { name: string }[] }) => [loaded[loaded.length - 1]!.name];
      const { say, state } = await build(
        [
          callTool("read_skill", { name: "notes" }),
          callTool("read_skill", { name: "weather" }),
          callTool("read_skill", { name: "pdf-tools" }),
          answer(),
        ],
        { maxLoadedSkills: 2, loadMode: "session", evictionPolicy: evictNewest },
      );
      await say("go");
      // Least recently used would have dropped notes; the policy dropped the newest load instead.
      expect(
        getLoadedSkills(await state())
          .map((entry) => entry.name)
          .sort(),
      ).toEqual(["notes", "pdf-tools"]);
    });

    it("honours other runtimes' frontmatter dialects: spring's allowedTools unlock tools, tama's depends are reported", async () => {
      const dir = await mkdtemp(join(tmpdir(), "skills-dialect-"));
      try {
        await mkdir(join(dir, "spring-pdf"));
        const frontmatter =
          "name: spring-pdf\ndescription: PDF skill in spring-ai-alibaba's dialect.\nallowedTools:\n  - make_pdf\ntama:\n  depends:\n    bins: [pdftotext]\n    apt:\n      - poppler-utils\n";
        await writeFile(
          join(dir, "spring-pdf", "SKILL.md"),
          `---\n${frontmatter.replace("[pdftotext]", "\n      - pdftotext")}---\n\nSPRING BODY\n`,
        );
        const registry = await createSkillRegistry({ sources: [skillsFromDirectory(dir)] });
        expect(registry.get("spring-pdf")?.allowedTools).toEqual(["make_pdf"]);
        const { model, say, runs } = await build(
          [
            callTool("make_pdf", { title: "early" }),
            callTool("read_skill", { name: "spring-pdf" }),
            callTool("make_pdf", { title: "T" }),
            answer(),
          ],
          {},
          { skills: registry },
        );
        await say("pdf");
        expect(runs.make_pdf).toBe(1);
        const loaded = toolText(model.calls[2]!.messages).join("\n");
        expect(loaded).toContain("SPRING BODY");
        expect(loaded).toContain("apt-get install -y poppler-utils");
        expect(loaded).toContain("programs pdftotext");
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it("finds skills through search_skills", async () => {
      const { model, say } = await build([callTool("search_skills", { query: "weather forecast city" }), answer()]);
      await say("go");
      expect(toolText(model.calls[1]!.messages).join("\n")).toMatch(/weather/);
    });
  });
}
