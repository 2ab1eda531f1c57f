import { describe, expect, it } from "vitest";
import { engineContext } from "../__fixtures__/engine-context.js";
import { emptyAgentSkillsState } from "../state/skills-state.js";
import { gateToolCall } from "./tool-gate.js";

describe("tool-gate", () => {
  it("sends skills tools to the engine, blocks a locked skill tool, and runs it once its skill is loaded", async () => {
    const { registry, context, load } = await engineContext();
    const empty = emptyAgentSkillsState();
    expect(
      gateToolCall(context, { name: "read_skill", args: { name: "notes" } }, { state: empty, catalog: registry }),
    ).toEqual({
      action: "skills-tool",
    });
    const locked = gateToolCall(context, { name: "make_pdf", args: {} }, { state: empty, catalog: registry });
    expect(locked).toMatchObject({ action: "block" });
    expect(locked.action === "block" && locked.reason).toContain("read_skill");
    const open = gateToolCall(
      context,
      { name: "make_pdf", args: {}, id: "x" },
      { state: load(["pdf-tools"]), catalog: registry },
    );
    expect(open).toMatchObject({ action: "run", owner: "pdf-tools" });
  });

  it("tells a model that calls a skill's name to read it, and lets an unknown ordinary tool through to the tool node", async () => {
    const { registry, context } = await engineContext();
    expect(
      gateToolCall(context, { name: "notes", args: {} }, { state: emptyAgentSkillsState(), catalog: registry }),
    ).toMatchObject({
      action: "block",
    });
    expect(
      gateToolCall(context, { name: "search_web", args: {} }, { state: emptyAgentSkillsState(), catalog: registry }),
    ).toMatchObject({
      action: "run",
    });
  });

  it("unwraps a dispatcher call into its inner call, same id", async () => {
    const { registry, context, load } = await engineContext({ toolExposure: "dispatcher" });
    const decision = gateToolCall(
      context,
      { name: "call_skill_tool", args: { tool: "make_pdf", arguments: { title: "T" } }, id: "d1" },
      { state: load(["pdf-tools"]), catalog: registry },
    );
    expect(decision).toMatchObject({ action: "run", call: { name: "make_pdf", args: { title: "T" }, id: "d1" } });
  });
});
