import { describe, expect, it } from "vitest";
import { InvalidOptionsError } from "../errors/invalid-options-error.js";
import { createSearchIndex } from "./search-index.js";
import type { SearchDocument } from "./search-types.js";

const docs: SearchDocument[] = [
  {
    name: "git-commit",
    description: "Write conventional commit messages for staged changes.",
    body: "# Commit\nRun git diff --staged, then git commit.",
    path: "/skills/git-commit/SKILL.md",
  },
  {
    name: "deploy-to-vercel",
    description: "Deploy applications and websites to Vercel.",
    body: "# Deploy\nRun vercel deploy and return the preview URL.",
    path: "/skills/deploy-to-vercel/SKILL.md",
  },
  {
    name: "pptx-builder",
    description: "Build editable PPTX decks.",
    body: "# Slides\nLay out each slide with a title and bullets.",
    path: "/skills/pptx-builder/SKILL.md",
  },
  {
    name: "seaborn",
    description: "Statistical visualization with pandas.",
    body: "# Plots\nBox plots, violin plots and heatmaps. Also mentions commit once.",
    path: "/skills/seaborn/SKILL.md",
  },
];

describe("createSearchIndex", () => {
  it("ranks a name/description match above a body-only mention", () => {
    const results = createSearchIndex(docs).search("commit");
    expect(results.map((result) => result.name)).toEqual(["git-commit", "seaborn"]);
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
  });

  it("finds skills through synonyms, stems and typos", () => {
    const index = createSearchIndex(docs);
    expect(index.search("make a powerpoint presentation")[0]?.name).toBe("pptx-builder");
    expect(index.search("chart my dataframe")[0]?.name).toBe("seaborn");
    expect(index.search("depoly my site to vercle")[0]?.name).toBe("deploy-to-vercel");
  });

  it("returns scores in 0..1, best first, and respects limit and minScore", () => {
    const index = createSearchIndex(docs);
    const results = index.search("deploy website commit slides");
    for (const result of results)
      (expect(result.score).toBeGreaterThan(0), expect(result.score).toBeLessThanOrEqual(1));
    expect(results.map((result) => result.score)).toEqual(
      [...results.map((result) => result.score)].sort((a, b) => b - a),
    );
    expect(index.search("deploy website commit slides", { limit: 1 })).toHaveLength(1);
    expect(index.search("deploy website commit slides", { minScore: 1 })).toEqual([]);
  });

  it("breaks score ties by name and gives identical results for identical input", () => {
    const twins: SearchDocument[] = [
      { name: "b-twin", description: "Resize images.", body: "", path: "/b" },
      { name: "a-twin", description: "Resize images.", body: "", path: "/a" },
    ];
    const results = createSearchIndex(twins).search("resize images");
    expect(results.map((result) => result.name)).toEqual(["a-twin", "b-twin"]);
    expect(results[0]!.score).toBe(results[1]!.score);
    expect(createSearchIndex([...twins].reverse()).search("resize images")).toEqual(results);
  });

  it("marks a strong match confident and an unrelated query not confident", () => {
    const index = createSearchIndex(docs);
    expect(index.search("commit my staged changes")[0]?.confident).toBe(true);
    expect(index.search("what's the weather in Paris").every((result) => !result.confident)).toBe(true);
  });

  it("returns nothing for an empty or stop-word-only query", () => {
    const index = createSearchIndex(docs);
    expect(index.search("")).toEqual([]);
    expect(index.search("how do I do it")).toEqual([]);
  });

  it("returns copies of name, description and path, never the body", () => {
    const [result] = createSearchIndex(docs).search("vercel");
    expect(result).toEqual({
      name: "deploy-to-vercel",
      score: result!.score,
      path: "/skills/deploy-to-vercel/SKILL.md",
      description: "Deploy applications and websites to Vercel.",
      confident: true,
    });
  });

  it("rejects invalid options with InvalidOptionsError naming the option", () => {
    expect(() => createSearchIndex(docs, { confidenceThreshold: 2 })).toThrow(InvalidOptionsError);
    expect(() => createSearchIndex(docs, { confidenceThreshold: 2 })).toThrow(/confidenceThreshold/);
    const index = createSearchIndex(docs);
    expect(() => index.search("x", { limit: -1 })).toThrow(/limit/);
    expect(() => index.search("x", { minScore: 1.5 })).toThrow(/minScore/);
  });

  it("uses extra concept groups given as options", () => {
    const plain = createSearchIndex(docs, { builtInConcepts: false });
    expect(plain.search("powerpoint")).toEqual([]);
    const extended = createSearchIndex(docs, { builtInConcepts: false, extraConceptGroups: [["powerpoint", "pptx"]] });
    expect(extended.search("powerpoint")[0]?.name).toBe("pptx-builder");
  });
});

describe("SearchIndex.update", () => {
  it("returns a new index and leaves the old snapshot answering as before", () => {
    const before = createSearchIndex(docs);
    const beforeResults = before.search("deploy to vercel");
    const after = before.update({
      upsert: [{ name: "netlify-deploy", description: "Deploy sites to Netlify.", body: "", path: "/n" }],
      remove: ["deploy-to-vercel"],
    });
    expect(before.size).toBe(4);
    expect(after.size).toBe(4);
    expect(before.search("deploy to vercel")).toEqual(beforeResults);
    expect(after.search("deploy to vercel").map((result) => result.name)).not.toContain("deploy-to-vercel");
    expect(after.search("netlify")[0]?.name).toBe("netlify-deploy");
    expect(before.search("netlify")).toEqual([]);
  });

  it("replaces a document upserted under an existing name", () => {
    const index = createSearchIndex(docs).update({
      upsert: [
        {
          name: "seaborn",
          description: "Geographic maps with shapefiles.",
          body: "",
          path: "/skills/seaborn/SKILL.md",
        },
      ],
    });
    expect(index.size).toBe(4);
    expect(index.search("violin plots")).toEqual([]);
    expect(index.search("shapefiles")[0]?.name).toBe("seaborn");
  });

  it("ranks exactly like an index built from scratch over the same documents", () => {
    const updated = createSearchIndex(docs.slice(0, 2))
      .update({ upsert: docs.slice(2) })
      .update({ remove: ["git-commit"] })
      .update({ upsert: [docs[0]!] });
    const fresh = createSearchIndex(docs);
    for (const query of ["commit", "deploy website", "violin plot", "slides deck"])
      expect(updated.search(query)).toEqual(fresh.search(query));
  });

  it("ignores removal of names it does not hold", () => {
    const index = createSearchIndex(docs).update({ remove: ["nope"] });
    expect(index.size).toBe(4);
  });
});
