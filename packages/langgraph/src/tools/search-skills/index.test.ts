import { describe, expect, it } from "vitest";
import { createTestRegistry } from "../../__fixtures__/test-skills.js";
import { toolContext } from "../../__fixtures__/tool-context.js";
import { runSearchSkills } from "./index.js";

describe("search_skills", () => {
  it("ranks the best match first", async () => {
    const outcome = await runSearchSkills({ query: "pdf files" }, toolContext(await createTestRegistry()));
    expect(outcome.content.split("\n")[1]).toMatch(/^- pdf-tools \(score/);
  });

  it("leaves out skills the agent disabled", async () => {
    const outcome = await runSearchSkills(
      { query: "pdf files" },
      toolContext(await createTestRegistry(), {}, { load: { seq: 0, loaded: {} }, disabled: ["pdf-tools"] }),
    );
    expect(outcome.content).not.toContain("pdf-tools");
  });

  it("honours searchLimit", async () => {
    const outcome = await runSearchSkills(
      { query: "skill notes weather pdf git" },
      toolContext(await createTestRegistry(), { searchLimit: 1 }),
    );
    expect(outcome.content.split("\n").filter((line) => line.startsWith("- "))).toHaveLength(1);
  });

  it("asks for a query when it is missing", async () => {
    expect((await runSearchSkills({}, toolContext(await createTestRegistry()))).status).toBe("error");
  });
});
