import { describe, expect, it } from "vitest";
import { createTestRegistry } from "../../__fixtures__/test-skills.js";
import { toolContext } from "../../__fixtures__/tool-context.js";
import { runListSkillFiles } from "./index.js";

describe("list_skill_files", () => {
  it("lists every file of the skill with its size", async () => {
    const outcome = await runListSkillFiles({ name: "pdf-tools" }, toolContext(await createTestRegistry()));
    expect(outcome.content).toContain("- references/api.md (11 bytes)");
    expect(outcome.content).toContain("- scripts/run.sh (7 bytes)");
  });

  it("says when a skill has no files besides SKILL.md", async () => {
    const outcome = await runListSkillFiles({ name: "notes" }, toolContext(await createTestRegistry()));
    expect(outcome.content).toBe("Skill 'notes' has no files besides SKILL.md.");
  });

  it("answers an unknown skill with an error", async () => {
    const outcome = await runListSkillFiles({ name: "nope" }, toolContext(await createTestRegistry()));
    expect(outcome.status).toBe("error");
  });
});
