import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { createSkillRegistry, skillsFromCode, skillsFromDirectory } from "@skillgraph/core";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createTestRegistry, createTestTools } from "../__fixtures__/test-skills.js";
import { SkillDriftError } from "../internal/core.js";
import { resolveOptions } from "../options/resolve-options.js";
import type { SkillsRuntimeOptions } from "../options/skills-runtime-options.js";
import { emptyAgentSkillsState, type AgentSkillsState, applyAgentSkillsUpdate } from "../state/skills-state.js";
import { createSkillsEngine } from "./skills-engine.js";
import { prepareModelCall } from "./state-events.js";
import { buildModelRequest } from "./model-request.js";
import { gateToolCall } from "./tool-gate.js";
import { runSkillsTool } from "./tool-running.js";

async function setup(options: Partial<SkillsRuntimeOptions> = {}) {
  const registry = await createTestRegistry();
  const tools = createTestTools();
  const engine = createSkillsEngine(resolveOptions({ skills: registry, tools: [tools.makePdf], ...options }));
  const load = (state: AgentSkillsState, name: string, hash = registry.get(name)!.hash) =>
    applyAgentSkillsUpdate(state, { events: [{ type: "load", name, mode: "turn", hash, seq: state.load.seq + 1 }] });
  return { registry, engine, load, tools };
}

describe("SkillsEngine", () => {
  it("ends the turn before a request whose last message is the user's", async () => {
    const { engine, load, registry } = await setup();
    const state = load(emptyAgentSkillsState(), "notes");
    const prepared = prepareModelCall(state, [new HumanMessage("next question")], registry, engine.options);
    expect(Object.keys(prepared.state.load.loaded)).toEqual([]);
    expect(prepared.events).toContainEqual({
      type: "skill-unloaded",
      agentId: "default",
      skill: "notes",
      reason: "turn-ended",
    });
    expect(
      Object.keys(prepareModelCall(state, [new AIMessage("thinking")], registry, engine.options).state.load.loaded),
    ).toEqual(["notes"]);
  });

  it("throws SkillDriftError before the model call when onDrift is fail and a loaded skill changed", async () => {
    const { engine, load, registry } = await setup({ onDrift: "fail" });
    const state = load(emptyAgentSkillsState(), "notes", "old-hash");
    expect(() => prepareModelCall(state, [new AIMessage("x")], registry, engine.options)).toThrow(SkillDriftError);
  });

  it("blocks a registered pool tool that no visible skill unlocks", async () => {
    const { engine, registry } = await setup({ exclude: ["pdf-tools"] });
    const catalog = engine.views.catalogFor(emptyAgentSkillsState(), undefined);
    const decision = gateToolCall(
      engine,
      { name: "make_pdf", args: {} },
      { state: emptyAgentSkillsState(), catalog: catalog },
    );
    expect(decision).toEqual({ action: "block", reason: expect.stringContaining("no skill visible to this agent") });
    expect(registry.has("pdf-tools")).toBe(true);
  });

  it("lets always-on tools through and marks skills tools", async () => {
    const { engine, registry } = await setup();
    expect(
      gateToolCall(engine, { name: "noop", args: {} }, { state: emptyAgentSkillsState(), catalog: registry }),
    ).toEqual({
      action: "run",
      call: { name: "noop", args: {} },
    });
    expect(
      gateToolCall(engine, { name: "read_skill", args: {} }, { state: emptyAgentSkillsState(), catalog: registry }),
    ).toEqual({
      action: "skills-tool",
    });
    expect(
      gateToolCall(engine, { name: "disable_skill", args: {} }, { state: emptyAgentSkillsState(), catalog: registry })
        .action,
    ).toBe("run");
  });

  it("leaves another agent's read_skill results as stubs", async () => {
    const { engine, load, registry } = await setup();
    const state = load(emptyAgentSkillsState(), "notes");
    const foreign = new ToolMessage({
      content: "stub",
      tool_call_id: "1",
      artifact: {
        skillgraph: { kind: "skill-body", agentId: "other", skill: "notes", hash: registry.get("notes")!.hash },
      },
    });
    const own = new ToolMessage({
      content: "stub",
      tool_call_id: "2",
      artifact: {
        skillgraph: { kind: "skill-body", agentId: "default", skill: "notes", hash: registry.get("notes")!.hash },
      },
    });
    const built = await buildModelRequest(engine, {
      state,
      catalog: registry,
      systemText: "",
      messages: [callOf("1", "2"), foreign, own],
      tools: [],
    });
    expect(built.messages[1]!.text).toBe("stub");
    expect(built.messages[2]!.text).toContain("NOTES BODY");
  });

  it("lists skills added by a registry reload without a new engine", async () => {
    const definitions = [{ name: "first", description: "The first skill.", body: "ONE" }];
    const registry = await createSkillRegistry({
      sources: [{ ...skillsFromCode([]), id: "code:live", scan: async () => skillsFromCode(definitions).scan() }],
    });
    const engine = createSkillsEngine(resolveOptions({ skills: registry }));
    const before = await buildModelRequest(engine, {
      state: emptyAgentSkillsState(),
      catalog: registry,
      systemText: "",
      messages: [],
      tools: [],
    });
    definitions.push({ name: "second", description: "The second skill.", body: "TWO" });
    await registry.reload();
    const after = await buildModelRequest(engine, {
      state: emptyAgentSkillsState(),
      catalog: registry,
      systemText: "",
      messages: [],
      tools: [],
    });
    expect(before.systemText).not.toContain("second");
    expect(after.systemText).toContain("second");
  });

  it("builds byte-identical requests for the same state (deterministic prompt and tool order)", async () => {
    const { engine, load, registry, tools } = await setup({
      toolExposure: "static",
      skillTools: { weather: [createTestTools().getForecast] },
    });
    const state = load(emptyAgentSkillsState(), "pdf-tools");
    const build = () =>
      buildModelRequest(engine, {
        state,
        catalog: registry,
        systemText: "S",
        messages: [new HumanMessage("x")],
        tools: [tools.noop],
      });
    const [one, two] = [await build(), await build()];
    expect(one.systemText).toBe(two.systemText);
    expect(one.tools.map((tool) => tool.name)).toEqual(two.tools.map((tool) => tool.name));
    expect(one.tools.map((tool) => tool.name)).toEqual([
      "noop",
      "read_skill",
      "read_skill_file",
      "search_skills",
      "list_skill_files",
      "get_forecast",
      "make_pdf",
    ]);
  });

  it.each([
    ["keep", "ALPHA V1", false],
    ["reload", "ALPHA V2", true],
  ] as const)("with onDrift %s serves %s after the skill changed on disk", async (onDrift, expected, noted) => {
    const dir = await mkdtemp(join(tmpdir(), "engine-drift-"));
    try {
      const write = (body: string) =>
        writeFile(join(dir, "alpha", "SKILL.md"), `---\nname: alpha\ndescription: Alpha skill.\n---\n\n${body}\n`);
      await mkdir(join(dir, "alpha"));
      await write("ALPHA V1");
      const registry = await createSkillRegistry({ sources: [skillsFromDirectory(dir)] });
      const engine = createSkillsEngine(resolveOptions({ skills: registry, onDrift, loadMode: "session" }));
      const outcome = await runSkillsTool(
        engine,
        { name: "read_skill", args: { name: "alpha" }, id: "c1" },
        emptyAgentSkillsState(),
        registry,
      );
      const stored = new ToolMessage({
        content: outcome.content,
        tool_call_id: "c1",
        artifact: { skillgraph: outcome.artifact },
      });
      let state = applyAgentSkillsUpdate(emptyAgentSkillsState(), outcome.update!);
      await write("ALPHA V2, longer than before");
      await registry.reload();
      state = prepareModelCall(state, [callOf("c1"), stored], registry, engine.options).state;
      const built = await buildModelRequest(engine, {
        state,
        catalog: registry,
        systemText: "",
        messages: [callOf("c1"), stored],
        tools: [],
      });
      expect(built.messages[1]!.text).toContain(expected);
      expect(built.messages[1]!.text.includes("changed since it was loaded")).toBe(noted);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** The AI message making read_skill calls with these ids (a result the model is sent always follows its call). */
function callOf(...ids: string[]): AIMessage {
  return new AIMessage({
    content: "",
    tool_calls: ids.map((id) => ({ name: "read_skill", args: { name: "notes" }, id, type: "tool_call" as const })),
  });
}
