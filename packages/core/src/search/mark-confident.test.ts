import { describe, expect, it } from "vitest";
import { confidenceOf } from "./confidence-model.js";
import { leaderIsConfident } from "./judge-phrasings.js";
import { markConfident } from "./mark-confident.js";
import { DEFAULT_CONFIDENCE_MARGIN, DEFAULT_CONFIDENCE_THRESHOLD } from "./search-index-options.js";
import { createSearchIndex } from "./search-index.js";

const hit = (name: string, score: number) => ({ name, score, path: `/s/${name}/SKILL.md`, description: name });
const rule = { threshold: DEFAULT_CONFIDENCE_THRESHOLD, margin: DEFAULT_CONFIDENCE_MARGIN };
// The worst name evidence: the name holds no query word and the query says none of the name.
const single = (...ranking: Array<ReturnType<typeof hit>>) => [
  { ranking, unknownWord: false, nameMatchOf: () => 0, nameMissingOf: () => 1 },
];

describe("markConfident", () => {
  it("marks the first result only, and none when told so", () => {
    expect(markConfident([hit("a", 0.6), hit("b", 0.5)], true).map((r) => r.confident)).toEqual([true, false]);
    expect(markConfident([hit("a", 0.6), hit("b", 0.5)], false).some((r) => r.confident)).toBe(false);
  });
});

describe("the calibrated confidence of one phrasing", () => {
  it("grows with the leader's score, its lead and the part of its name the request says; falls with a word no skill uses", () => {
    const base = { score: 0.5, lead: 0.1, nameMatch: 0, nameMissing: 1, unknownWord: false };
    expect(confidenceOf({ ...base, score: 0.6 })).toBeGreaterThan(confidenceOf(base));
    expect(confidenceOf({ ...base, lead: 0.2 })).toBeGreaterThan(confidenceOf(base));
    expect(confidenceOf({ ...base, nameMissing: 0.5 })).toBeGreaterThan(confidenceOf(base));
    // A request holding the skill's name, a specific word ("clockify" for clockify-automation), against one holding none.
    expect(confidenceOf({ ...base, nameMatch: 0.8, nameMissing: 0.2 })).toBeGreaterThan(confidenceOf(base));
    expect(confidenceOf({ ...base, unknownWord: true })).toBeLessThan(confidenceOf(base));
  });

  it("is confident for a clear lead, not for a weak or tied leader", () => {
    expect(leaderIsConfident(single(hit("a", 0.6), hit("b", 0.3)), [hit("a", 0.6)], rule)).toBe(true);
    expect(leaderIsConfident(single(hit("a", 0.3), hit("b", 0.1)), [hit("a", 0.3)], rule)).toBe(false);
    expect(leaderIsConfident(single(hit("a", 0.9), hit("b", 0.9)), [hit("a", 0.9)], rule)).toBe(false);
  });

  it("counts a competitor the limit cut off (every candidate the phrasing scored)", () => {
    expect(leaderIsConfident(single(hit("a", 0.5), hit("b", 0.1)), [hit("a", 0.5)], rule)).toBe(true);
    expect(leaderIsConfident(single(hit("a", 0.5), hit("b", 0.45)), [hit("a", 0.5)], rule)).toBe(false);
  });

  it("marks none in a fused list whose best score is not first (the phrasings disagree)", () => {
    const phrasings = [...single(hit("a", 0.9), hit("b", 0.2)), ...single(hit("a", 0.9), hit("b", 0.95))];
    expect(leaderIsConfident(phrasings, [hit("a", 0.9), hit("b", 0.95)], rule)).toBe(false);
  });

  it("with rewrites, a rewrite holding a word no skill uses rules confidence out", () => {
    const strong = single(hit("a", 0.9), hit("b", 0.1));
    expect(leaderIsConfident([...strong, ...strong], [hit("a", 0.9)], rule)).toBe(true);
    expect(leaderIsConfident([...strong, { ...strong[0]!, unknownWord: true }], [hit("a", 0.9)], rule)).toBe(false);
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
