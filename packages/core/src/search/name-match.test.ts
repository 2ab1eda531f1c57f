import { describe, expect, it } from "vitest";
import { nameMatch, nameMissing } from "./name-match.js";
import { buildQuerySlots } from "./query-slots.js";
import { createSearchIndex, stateOfIndex } from "./search-index.js";
import { resolveSearchIndexOptions } from "./search-index-options.js";

const index = createSearchIndex([
  { name: "namecheap", description: "Manage DNS records at Namecheap.", body: "# DNS", path: "/s/namecheap/SKILL.md" },
  {
    name: "clockify-automation",
    description: "Automate Clockify time tracking.",
    body: "# Time entries",
    path: "/s/clockify/SKILL.md",
  },
  { name: "dns-automation", description: "Automate DNS changes.", body: "# DNS", path: "/s/dns/SKILL.md" },
  { name: "report-builder", description: "Build reports from CSV files.", body: "# CSV", path: "/s/report/SKILL.md" },
]);
const state = stateOfIndex(index);
const options = resolveSearchIndexOptions({});
const slotsOf = (query: string) => buildQuerySlots(query, state, options.synonyms, options.expansion);
const idOf = (name: string) => [...Array(state.count).keys()].find((id) => state.docs.nameOf(id) === name)!;

describe("nameMissing", () => {
  it("is 0 when the request holds the whole name, 1 when it holds none of it", () => {
    expect(nameMissing(state, slotsOf("namecheap dns records"), "namecheap")).toBe(0);
    expect(nameMissing(state, slotsOf("add a CNAME record in Cloudflare DNS"), "namecheap")).toBe(1);
  });

  it("weighs each name word by its IDF: the rare word left out costs more than the common one", () => {
    const withoutCommon = nameMissing(state, slotsOf("log time in clockify"), "clockify-automation");
    const withoutRare = nameMissing(state, slotsOf("change dns records automatically"), "dns-automation");
    expect(withoutCommon).toBeGreaterThan(0);
    expect(withoutCommon).toBeLessThan(0.5);
    expect(withoutRare).toBeGreaterThan(0);
    expect(nameMissing(state, slotsOf("automation"), "clockify-automation")).toBeGreaterThan(0.5);
  });

  it("counts a name word matched through a stand-in, and is 1 for a name with no index word", () => {
    // "reporting" stems to the name's "report"; "csv" is no part of the name.
    expect(nameMissing(state, slotsOf("reporting from a csv"), "report-builder")).toBeLessThan(1);
    expect(nameMissing(state, slotsOf("anything"), "the")).toBe(1);
  });

  it("moves against nameMatch: the name holding a specific query word leaves little of it unsaid", () => {
    const slots = slotsOf("clockify time tracking");
    expect(nameMatch(state, slots, idOf("clockify-automation"))).toBeGreaterThan(0);
    expect(nameMissing(state, slots, "clockify-automation")).toBeLessThan(nameMissing(state, slots, "dns-automation"));
  });
});
