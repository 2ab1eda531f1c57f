import { describe, expect, it } from "vitest";
import { buildSynonymMap, defaultSynonyms } from "./synonym-map.js";

describe("buildSynonymMap", () => {
  it("links every stemmed word of a group to the others, marking equivalents", () => {
    const map = buildSynonymMap([["chart", "plots"]], [["xlsx", "spreadsheets"]]);
    expect(map.get("chart")).toEqual([{ term: "plot", equivalent: false }]);
    expect(map.get("spreadsheet")).toEqual([{ term: "xlsx", equivalent: true }]);
    expect(map.has("missing")).toBe(false);
  });

  it("lets an equivalence win when a pair is also listed as related", () => {
    const map = buildSynonymMap([["pptx", "deck", "poster"]], [["pptx", "deck"]]);
    expect(map.get("pptx")).toEqual([
      { term: "deck", equivalent: true },
      { term: "poster", equivalent: false },
    ]);
  });

  it("ships a built-in table covering common office formats", () => {
    const terms = (defaultSynonyms().get("excel") ?? []).map((synonym) => synonym.term);
    expect(terms).toContain("xlsx");
  });
});
