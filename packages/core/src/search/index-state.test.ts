import { describe, expect, it } from "vitest";
import { applyChanges, EMPTY_STATE, hasTerm, type IndexState } from "./index-state.js";
import { analyzeDocument, fieldFrequency } from "./indexed-document.js";

const a = analyzeDocument({
  name: "alpha",
  description: "Resize images",
  body: "# Images\nresize resize crop",
  path: "/a",
});
const b = analyzeDocument({ name: "beta", description: "Deploy sites", body: "deploy", path: "/b" });

/** The names of the documents holding `term`, in posting order. */
function holders(state: IndexState, term: string): string[] {
  const id = state.terms.find(term);
  if (id < 0) return [];
  const names: string[] = [];
  for (let at = state.starts[id]!; at < state.starts[id + 1]!; at++)
    names.push(state.docs.nameOf(state.postingDocs[at]!));
  return names;
}

describe("applyChanges", () => {
  it("leaves the previous state untouched and appends added documents to the lists they join", () => {
    const first = applyChanges(EMPTY_STATE, [], [a, b]);
    const c = analyzeDocument({ name: "gamma", description: "Crop photos", body: "", path: "/c" });
    const second = applyChanges(first, [], [c]);
    expect(holders(first, "crop")).toEqual(["alpha"]);
    expect(holders(second, "crop")).toEqual(["alpha", "gamma"]);
    expect(holders(second, "deploi")).toEqual(["beta"]);
    expect(second.docs.detailOf(2)).toEqual({ name: "gamma", description: "Crop photos", path: "/c" });
    expect(first.count).toBe(2);
  });

  it("drops terms whose last document is removed and keeps length sums exact", () => {
    const state = applyChanges(applyChanges(EMPTY_STATE, [], [a, b]), ["beta"], []);
    expect(hasTerm(state, "deploi")).toBe(false);
    expect(holders(state, "resiz")).toEqual(["alpha"]);
    expect(state.lengthSums).toEqual(a.lengths);
  });

  it("keeps the vocabulary in code-unit order and replaces a same-named document", () => {
    const edited = analyzeDocument({ name: "alpha", description: "Zip archives", body: "", path: "/a2" });
    const state = applyChanges(applyChanges(EMPTY_STATE, [], [a, b]), [], [edited]);
    const terms = Array.from({ length: state.terms.size }, (_, id) => state.terms.termAt(id));
    expect(terms).toEqual([...terms].sort((x, y) => (x < y ? -1 : 1)));
    expect(holders(state, "resiz")).toEqual([]);
    expect(holders(state, "zip")).toEqual(["alpha"]);
    expect(state.count).toBe(2);
  });
});

describe("analyzeDocument", () => {
  it("counts terms per field (name, description, headings, body) and keeps no body text", () => {
    const i = a.terms.indexOf("imag");
    expect([0, 1, 2, 3].map((field) => fieldFrequency(a.packed[i]!, field))).toEqual([0, 1, 1, 1]);
    expect(fieldFrequency(a.packed[a.terms.indexOf("resiz")]!, 3)).toBe(2);
    expect(Object.values(a)).not.toContain("# Images\nresize resize crop");
  });
});
