import { describe, expect, it } from "vitest";
import { suggestNames } from "./suggest-names.js";

describe("suggestNames (did-you-mean hints of SkillNotFoundError)", () => {
  it("counts a swap of two neighbouring letters as one typo (the search's edit distance, not plain Levenshtein)", () => {
    // Two swaps: distance 2 with transpositions, 4 with plain Levenshtein (the copy this file had), over the limit of 2.
    expect(suggestNames("hlelo-wrold", ["hello-world", "help-desk"])).toEqual(["hello-world"]);
    expect(suggestNames("depoly", ["deploy", "develop"])).toEqual(["deploy"]);
  });

  it("ranks closer names first, accepts containment, and returns nothing for unrelated names", () => {
    expect(suggestNames("pdf", ["pdf-forms", "pfd", "sql"])).toEqual(["pdf-forms", "pfd"]);
    // A long name (a limit of 4 typos) once got every name: the distance gave up at 3 and reported 4, within the limit.
    expect(suggestNames("kubernetes-deploy", ["pdf", "sql-review"])).toEqual([]);
    expect(suggestNames("kubernetes-deplyo", ["kubernetes-deploy", "pdf"])).toEqual(["kubernetes-deploy"]);
    expect(suggestNames("RELASE-NOTES", ["release-notes"])).toEqual(["release-notes"]);
  });
});
