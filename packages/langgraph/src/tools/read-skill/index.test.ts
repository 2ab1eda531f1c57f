import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { describe, expect, it } from "vitest";
import { createTestRegistry, createTestTools } from "../../__fixtures__/test-skills.js";
import { toolContext } from "../../__fixtures__/tool-context.js";
import { buildReadSkillTool, runReadSkill } from "./index.js";

describe("read_skill", () => {
  it("records a load event with the skill's hash and mode, and a stub without the body", async () => {
    const registry = await createTestRegistry();
    const outcome = await runReadSkill(
      { name: "pdf-tools" },
      toolContext(registry, { loadModes: { "pdf-tools": "session" } }, undefined, {
        "pdf-tools": [createTestTools().makePdf],
      }),
    );
    expect(outcome.update?.events).toEqual([
      { type: "load", name: "pdf-tools", mode: "session", hash: registry.get("pdf-tools")!.hash, seq: 1 },
    ]);
    expect(outcome.artifact).toEqual({
      kind: "skill-body",
      agentId: "test",
      skill: "pdf-tools",
      hash: registry.get("pdf-tools")!.hash,
    });
    expect(outcome.content).not.toContain("PDF BODY");
    expect(outcome.content).toContain("references/api.md");
    expect(outcome.content).toContain("Tools unlocked by this skill: make_pdf");
  });

  it("answers an unknown name with an error and close matches", async () => {
    const outcome = await runReadSkill({ name: "pdf" }, toolContext(await createTestRegistry()));
    expect(outcome.status).toBe("error");
    expect(outcome.content).toMatch(/Skill 'pdf' not found.*pdf-tools/);
    expect(outcome.update).toBeUndefined();
  });

  it("refuses a skill the agent disabled", async () => {
    const outcome = await runReadSkill(
      { name: "notes" },
      toolContext(await createTestRegistry(), {}, { load: { seq: 0, loaded: {} }, disabled: ["notes"] }),
    );
    expect(outcome.status).toBe("error");
    expect(outcome.content).toContain("disabled");
  });

  it("uses a zod enum of the skill names when there are few, and a string beyond the threshold", async () => {
    const nameSchema = (threshold: number) =>
      (
        toJsonSchema(buildReadSkillTool(["a", "b"], threshold).schema as never) as {
          properties: { name: { enum?: string[]; type?: string } };
        }
      ).properties.name;
    expect(nameSchema(50).enum).toEqual(["a", "b"]);
    expect(nameSchema(1).enum).toBeUndefined();
    expect(nameSchema(1).type).toBe("string");
  });
});
