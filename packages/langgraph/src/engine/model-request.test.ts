import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { engineContext } from "../__fixtures__/engine-context.js";
import { buildModelRequest, fileBlock, materialiseMessages } from "./model-request.js";

/** A read_skill call and its result (a result the model is sent always follows its call). */
const readResult = (skill: string, hash: string, id: string, docs?: string[]) => [
  new AIMessage({ content: "", tool_calls: [{ name: "read_skill", args: { name: skill }, id, type: "tool_call" }] }),
  new ToolMessage({
    content: `Skill '${skill}' loaded.`,
    tool_call_id: id,
    artifact: { skillgraph: { kind: "skill-body", agentId: "default", skill, hash, ...(docs ? { docs } : {}) } },
  }),
];

describe("model-request", () => {
  it("fills the latest read_skill result of a loaded skill, points earlier ones to it, and restores nothing", async () => {
    const { registry, context, load } = await engineContext();
    const state = load(["notes"]);
    const hash = registry.get("notes")!.hash;
    const messages = [new HumanMessage("hi"), ...readResult("notes", hash, "a"), ...readResult("notes", hash, "b")];
    const built = await buildModelRequest(context, { state, catalog: registry, systemText: "S", messages, tools: [] });
    expect(built.messages[2]!.text).toContain("see the later read_skill result");
    expect(built.messages[4]!.text).toContain("NOTES BODY");
    expect(built.restored).toEqual([]);
    expect(built.systemText).not.toContain("restored_skills");
  });

  it("restores a loaded skill whose result is gone at the end of the system text, and answers dangling calls", async () => {
    const { registry, context, load } = await engineContext();
    const state = load(["notes", "weather"]);
    const dangling = new AIMessage({
      content: "",
      tool_calls: [{ name: "noop", args: {}, id: "lost", type: "tool_call" }],
    });
    const messages = [
      new HumanMessage("hi"),
      ...readResult("weather", registry.get("weather")!.hash, "w"),
      dangling,
      new HumanMessage("again"),
    ];
    const built = await buildModelRequest(context, { state, catalog: registry, systemText: "S", messages, tools: [] });
    expect(built.restored).toEqual(["notes"]);
    expect(built.systemText.indexOf("<restored_skills>")).toBeGreaterThan(built.systemText.indexOf("pdf-tools"));
    expect(built.systemText).toContain("NOTES BODY");
    expect(built.systemText).not.toContain("WEATHER BODY");
    expect(built.repairs.map((message) => message.tool_call_id)).toEqual(["lost"]);
    expect(built.messages.map((message) => message.getType())).toEqual(["human", "ai", "tool", "ai", "tool", "human"]);
  });

  it("shows selected docs with the body while they are in the entry's docs", async () => {
    const { registry, context, load } = await engineContext();
    const loaded = load(["pdf-tools"]);
    const withDoc = {
      ...loaded,
      load: {
        ...loaded.load,
        loaded: { "pdf-tools": { ...loaded.load.loaded["pdf-tools"]!, docs: ["references/api.md"] } },
      },
    };
    const messages = readResult("pdf-tools", registry.get("pdf-tools")!.hash, "p", ["references/api.md"]);
    const shown = await buildModelRequest(context, {
      state: withDoc,
      catalog: registry,
      systemText: "",
      messages,
      tools: [],
    });
    expect(shown.messages[1]!.text).toContain('<skill_file skill="pdf-tools" path="references/api.md">');
    const dropped = await buildModelRequest(context, {
      state: loaded,
      catalog: registry,
      systemText: "",
      messages,
      tools: [],
    });
    expect(dropped.messages[1]!.text).not.toContain("PDF API DOC");
  });
  it("rewrites a growing thread from the result positions its scan kept as a look at every message does", async () => {
    const { registry, context, load } = await engineContext();
    const state = load(["notes", "weather"]);
    const hash = (name: string) => registry.get(name)!.hash;
    const file = new ToolMessage({
      content: "file",
      tool_call_id: "f",
      artifact: { skillgraph: { kind: "skill-file", agentId: "default", skill: "notes", path: "missing.md" } },
    });
    const fileCall = new AIMessage({
      content: "",
      tool_calls: [{ name: "read_skill_file", args: {}, id: "f", type: "tool_call" }],
    });
    const other = readResult("notes", hash("notes"), "o");
    (other[1] as ToolMessage).artifact.skillgraph.agentId = "someone-else";
    const steps = [
      [new HumanMessage("hi")],
      readResult("notes", hash("notes"), "a"),
      [fileCall, file],
      other,
      readResult("weather", hash("weather"), "w"),
      readResult("notes", hash("notes"), "b"),
      [new HumanMessage("again")],
    ];
    let history: (AIMessage | ToolMessage | HumanMessage)[] = [];
    for (const step of steps) {
      history = [...history, ...step];
      const built = await buildModelRequest(context, {
        state,
        catalog: registry,
        systemText: "S",
        messages: history,
        tools: [],
      });
      const scope = { context, state, catalog: registry, index: context.versions.cacheFor(registry).index };
      const everyMessage = await materialiseMessages(scope, history);
      expect(built.messages.map((message) => message.text)).toEqual(
        everyMessage.messages.map((message) => message.text),
      );
      if (history.length > 1) expect(built.messages.some((message) => message.text.includes("NOTES BODY"))).toBe(true);
      expect(built.systemText).toBe(built.skillsText ? `S\n\n${built.skillsText}` : "S");
    }
  });

  it("escapes attribute values of a skill file block (a hostile file name cannot add attributes or close the tag)", () => {
    expect(fileBlock("pdf", `a" onload="x><b>.md`, "text\n")).toBe(
      '<skill_file skill="pdf" path="a&quot; onload=&quot;x&gt;&lt;b&gt;.md">\ntext\n</skill_file>',
    );
  });
});
