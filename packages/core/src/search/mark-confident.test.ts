import { describe, expect, it } from "vitest";
import { markConfident } from "./mark-confident.js";
import { createSearchIndex } from "./search-index.js";

const hit = (name: string, score: number) => ({ name, score, path: `/s/${name}/SKILL.md`, description: name });
const rule = { threshold: 0.45, margin: 0.03 };

describe("markConfident", () => {
  it("marks the one result that clears the threshold and leads every other by the margin", () => {
    expect(markConfident([hit("a", 0.6), hit("b", 0.5)], rule, 0).map((r) => r.confident)).toEqual([true, false]);
  });

  it("marks none when the best two are about equal (a coin toss), or the best is under the threshold", () => {
    expect(markConfident([hit("a", 0.6), hit("b", 0.58)], rule, 0).some((r) => r.confident)).toBe(false);
    expect(markConfident([hit("a", 0.44)], rule, 0).some((r) => r.confident)).toBe(false);
  });

  it("counts a competitor the limit cut off", () => {
    expect(markConfident([hit("a", 0.6)], rule, 0.59)[0]!.confident).toBe(false);
    expect(markConfident([hit("a", 0.6)], rule, 0.5)[0]!.confident).toBe(true);
  });

  it("marks none in a fused list whose best score is not first (the phrasings disagree)", () => {
    expect(markConfident([hit("a", 0.3), hit("b", 0.7)], rule, 0).some((r) => r.confident)).toBe(false);
  });
});

describe("several phrasings of one need", () => {
  const index = createSearchIndex([
    {
      name: "weather",
      description: "Look up weather forecasts for a city.",
      body: "# Weather",
      path: "/s/weather/SKILL.md",
    },
    { name: "pdf-tools", description: "Create and edit PDF files.", body: "# PDF", path: "/s/pdf-tools/SKILL.md" },
    { name: "notes", description: "Take and organise notes.", body: "# Notes", path: "/s/notes/SKILL.md" },
  ]);

  it("are fused by reciprocal rank, each result keeping its best score", () => {
    const phrasings = ["tomorrow's sky outlook for Lisbon", "weather forecast city", "city weather forecasts"];
    const results = index.search(phrasings, { limit: 3 });
    expect(results[0]).toMatchObject({ name: "weather", confident: true });
    expect(results[0]!.score).toBe(
      Math.max(...phrasings.slice(1).map((phrasing) => index.search(phrasing, { limit: 1 })[0]!.score)),
    );
  });

  it("are confident only when at least two phrasings each score the first result over the threshold", () => {
    const one = index.search(["tomorrow's sky outlook for Lisbon", "weather forecast city"], { limit: 3 });
    expect(one[0]).toMatchObject({ name: "weather", confident: false });
    expect(index.search("weather forecast city", { limit: 1 })[0]!.confident).toBe(true);
  });

  it("equal one phrasing when given one, and ignore blank and repeated ones", () => {
    expect(index.search(["pdf files", " ", "pdf files"])).toEqual(index.search("pdf files"));
    expect(index.search([])).toEqual([]);
  });

  it("must be strings (typed error naming the query)", () => {
    expect(() => index.search([1] as unknown as string[])).toThrow(/query/);
    expect(() => index.search({} as unknown as string)).toThrow(/must be a string or an array of strings/);
  });

  it("keep limit and minScore", () => {
    expect(index.search(["pdf", "notes", "weather"], { limit: 2 })).toHaveLength(2);
    expect(index.search(["pdf", "notes"], { minScore: 0.99 })).toEqual([]);
  });
});
