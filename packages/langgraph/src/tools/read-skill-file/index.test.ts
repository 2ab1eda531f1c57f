import { describe, expect, it } from "vitest";
import { createTestRegistry } from "../../__fixtures__/test-skills.js";
import { toolContext } from "../../__fixtures__/tool-context.js";
import { runReadSkillFile } from "./index.js";

describe("read_skill_file", () => {
  it("stores a stub with a file marker and records the doc for a loaded skill (the request fills the content)", async () => {
    const registry = await createTestRegistry();
    const state = {
      load: {
        seq: 2,
        loaded: {
          "pdf-tools": { name: "pdf-tools", mode: "turn" as const, loadedSeq: 1, lastUsedSeq: 1, hash: "h", docs: [] },
        },
      },
      disabled: [],
    };
    const outcome = await runReadSkillFile(
      { name: "pdf-tools", path: "references/api.md" },
      toolContext(registry, {}, state),
    );
    expect(outcome.content).not.toContain("PDF API DOC");
    expect(outcome.artifact).toEqual({
      kind: "skill-file",
      agentId: "test",
      skill: "pdf-tools",
      path: "references/api.md",
    });
    expect(outcome.update?.events).toEqual([{ type: "doc", name: "pdf-tools", path: "references/api.md", seq: 3 }]);
  });

  it("returns the content inline for a skill that is not loaded", async () => {
    const registry = await createTestRegistry();
    const outcome = await runReadSkillFile({ name: "pdf-tools", path: "references/api.md" }, toolContext(registry, {}));
    expect(outcome.content).toBe("PDF API DOC");
    expect(outcome.artifact).toBeUndefined();
  });

  it("refuses a path that leaves the skill folder", async () => {
    const outcome = await runReadSkillFile(
      { name: "pdf-tools", path: "../notes/SKILL.md" },
      toolContext(await createTestRegistry()),
    );
    expect(outcome.status).toBe("error");
    expect(outcome.content).toContain("Cannot read '../notes/SKILL.md' of skill 'pdf-tools'");
  });

  it("refuses a file above maxResourceBytes", async () => {
    const outcome = await runReadSkillFile(
      { name: "pdf-tools", path: "references/api.md" },
      toolContext(await createTestRegistry(), { maxResourceBytes: 3 }),
    );
    expect(outcome.status).toBe("error");
  });

  it("asks for the path when it is missing", async () => {
    const outcome = await runReadSkillFile({ name: "pdf-tools" }, toolContext(await createTestRegistry()));
    expect(outcome.content).toContain("Missing the file path");
  });
});
