import { describe, expect, it } from "vitest";
import { createTestRegistry } from "../../__fixtures__/test-skills.js";
import { toolContext } from "../../__fixtures__/tool-context.js";
import { QUERIES_DESCRIPTION, SEARCH_SKILLS_DESCRIPTION } from "./description.js";
import { buildSearchSkillsTool, runSearchSkills } from "./index.js";
import { MAX_SEARCH_PHRASINGS } from "./search-phrasings.js";

const listed = (content: string) => content.split("\n").filter((line) => line.startsWith("- "));

describe("search_skills", () => {
  it("ranks the best match first and marks a clear fit confident", async () => {
    const outcome = await runSearchSkills({ query: "create pdf files" }, toolContext(await createTestRegistry()));
    expect(outcome.content).toMatch(/^Skills matching 'create pdf files', best first:/);
    expect(listed(outcome.content)[0]).toMatch(/^- pdf-tools \(score [\d.]+, confident fit\)/);
  });

  it("fuses several phrasings: a rewrite in the skill's words finds what the request as written does not", async () => {
    const registry = await createTestRegistry();
    const asWritten = "I need tomorrow's sky outlook for Lisbon";
    const alone = await runSearchSkills({ queries: [asWritten] }, toolContext(registry));
    expect(alone.content).toMatch(/^No skill (matches|is a confident fit)/);
    const withRewrites = await runSearchSkills(
      { queries: [asWritten, "weather forecast for a city", "look up weather"] },
      toolContext(registry),
    );
    expect(withRewrites.content).toMatch(
      /^Skills matching 'I need tomorrow's sky outlook for Lisbon' \(and 2 rewrites\)/,
    );
    expect(listed(withRewrites.content)[0]).toMatch(/^- weather \(score [\d.]+, confident fit\)/);
  });

  it("says so when nothing is confident and suggests rewrites, instead of a list that reads as an answer", async () => {
    const registry = await createTestRegistry();
    const single = await runSearchSkills({ query: "organise my city trip" }, toolContext(registry));
    expect(single.content).toMatch(
      /^No skill is a confident fit for 'organise my city trip'\. Closest matches, which may not fit/,
    );
    expect(single.content).not.toContain("confident fit)");
    expect(single.content).toMatch(/Try again with \{"queries": \[the request as written, then two or three rewrites/);
    const several = await runSearchSkills(
      { queries: ["organise my city trip", "travel itinerary planner"] },
      toolContext(registry),
    );
    expect(several.content).toMatch(/Try other rewrites \(a more specific tool, product or file format/);
    const none = await runSearchSkills({ queries: ["zzqx"] }, toolContext(registry));
    expect(none.content).toMatch(/^No skill matches 'zzqx'\. Try again with/);
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
      { queries: ["skill notes weather pdf git", "notes"] },
      toolContext(await createTestRegistry(), { searchLimit: 1 }),
    );
    expect(listed(outcome.content)).toHaveLength(1);
  });

  it("refuses missing, non-string, too many and overlong phrasings with a message saying what to send", async () => {
    const context = toolContext(await createTestRegistry());
    expect((await runSearchSkills({}, context)).content).toMatch(/^Missing the query: pass \{"queries"/);
    expect((await runSearchSkills({ queries: ["  ", ""] }, context)).status).toBe("error");
    expect((await runSearchSkills({ queries: ["pdf", 3] }, context)).content).toMatch(/must be a string/);
    expect((await runSearchSkills({ query: { $ne: 1 } }, context)).status).toBe("error");
    const many = Array.from({ length: MAX_SEARCH_PHRASINGS + 1 }, (_, i) => `pdf ${i}`);
    expect((await runSearchSkills({ queries: many }, context)).content).toMatch(/^Too many phrasings \(7\)/);
    expect((await runSearchSkills({ queries: ["pdf", "x".repeat(501)] }, context)).content).toMatch(
      /^A phrasing is 501 characters long/,
    );
  });

  it("accepts `query` next to `queries` and a lone string in `queries`, each phrasing once", async () => {
    const context = toolContext(await createTestRegistry());
    const outcome = await runSearchSkills({ queries: "pdf files", query: "pdf files" }, context);
    expect(outcome.content).toMatch(/^Skills matching 'pdf files', best first/);
  });

  it("tells the model to send the request as written plus rewrites in a skill author's words", () => {
    const built = buildSearchSkillsTool();
    expect(built.description).toBe(SEARCH_SKILLS_DESCRIPTION);
    expect(SEARCH_SKILLS_DESCRIPTION).toMatch(
      /first the user's request exactly as written, then two or three rewrites/,
    );
    for (const part of ["the task", "the tools, products, libraries or services", "the file formats"])
      expect(SEARCH_SKILLS_DESCRIPTION).toContain(part);
    expect(QUERIES_DESCRIPTION).toMatch(/task, tools, file formats/);
  });
});
