import { describe, expect, it } from "vitest";
import { confidenceOf } from "./confidence-model.js";
import { createSearchIndex, leaderEvidenceOf } from "./search-index.js";

const index = createSearchIndex([
  {
    name: "dns-records",
    description: "Manage DNS records for domains hosted on Cloudflare.",
    body: "# DNS\nAdd, update and delete records.",
    path: "/s/dns-records/SKILL.md",
  },
  { name: "pdf-tools", description: "Create and edit PDF files.", body: "# PDF", path: "/s/pdf-tools/SKILL.md" },
]);

const first = (query: string | string[]) => index.search(query)[0];

describe("a word no skill uses lowers the confidence as written, and rules it out in a rewrite", () => {
  it("keeps a clear fit confident when every word is known", () => {
    expect(first("manage cloudflare dns records")).toMatchObject({ name: "dns-records", confident: true });
  });

  it("is less confident when the request names a product no skill mentions, though the rest matches", () => {
    const known = leaderEvidenceOf(index, "manage cloudflare dns records");
    const unknown = leaderEvidenceOf(index, "manage godaddy dns records");
    expect(unknown).toMatchObject({ leader: "dns-records", evidence: { unknownWord: true } });
    expect(known.evidence.unknownWord).toBe(false);
    expect(confidenceOf(unknown.evidence)).toBeLessThan(confidenceOf({ ...unknown.evidence, unknownWord: false }));
  });

  it("still counts a near spelling of a known word as known", () => {
    expect(first("manage cloudflaer dns records")?.confident).toBe(true);
  });

  it("ignores short words (abbreviations) and words with digits", () => {
    expect(first("manage cloudflare dns records xyz")?.confident).toBe(true);
    expect(first("manage cloudflare dns records v2beta")?.confident).toBe(true);
  });

  it("judges only the rewrites when several phrasings are sent", () => {
    const known = ["manage cloudflare dns records", "cloudflare dns records"];
    expect(first(["please sort out my zone on the registrar", ...known])?.confident).toBe(true);
    expect(first(["please sort out my zone", "godaddy dns records", ...known])?.confident).toBe(false);
    // A word the user typed but no rewrite repeats does not count.
    expect(first(["please sort out my godaddy zone", ...known])?.confident).toBe(true);
  });
});
