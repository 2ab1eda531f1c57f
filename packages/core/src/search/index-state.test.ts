import { describe, expect, it } from "vitest";
import { applyChanges, EMPTY_STATE } from "./index-state.js";
import { analyzeDocument, fieldFrequency } from "./indexed-document.js";

const a = analyzeDocument({
  name: "alpha",
  description: "Resize images",
  body: "# Images\nresize resize crop",
  path: "/a",
});
const b = analyzeDocument({ name: "beta", description: "Deploy sites", body: "deploy", path: "/b" });

describe("applyChanges", () => {
  it("shares untouched posting lists and documents with the previous state", () => {
    const first = applyChanges(EMPTY_STATE, [], [a, b]);
    const c = analyzeDocument({ name: "gamma", description: "Crop photos", body: "", path: "/c" });
    const second = applyChanges(first, [], [c]);
    expect(second.postings.get("deploi")).toBe(first.postings.get("deploi"));
    expect(second.docs.get("alpha")).toBe(a);
    expect(second.postings.get("crop")).not.toBe(first.postings.get("crop"));
    expect(first.postings.get("crop")!.docs).toEqual([a]);
    expect(second.postings.get("crop")!.docs).toEqual([a, c]);
  });

  it("drops terms whose last document is removed and keeps length sums exact", () => {
    const state = applyChanges(applyChanges(EMPTY_STATE, [], [a, b]), ["beta"], []);
    expect(state.postings.has("deploi")).toBe(false);
    expect(state.headTerms.has("deploi")).toBe(false);
    expect(state.lengthSums).toEqual(a.lengths);
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
