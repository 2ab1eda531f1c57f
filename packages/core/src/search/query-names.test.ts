import { describe, expect, it } from "vitest";
import { nameTerms } from "./query-names.js";
import { createSearchIndex } from "./search-index.js";

describe("nameTerms", () => {
  it("takes capitalized words that do not start a sentence", () => {
    expect([...nameTerms("Create a new deal in HubSpot and attach it to the Acme record")]).toEqual(["hubspot", "acm"]);
    expect([...nameTerms("Deploy to Netlify. Then tell Slack's channel (IBM) about it")]).toEqual([
      "netlifi",
      "slack",
      "ibm",
    ]);
  });

  it("takes a sentence-initial word when it has a capital inside (camelCase or all capitals)", () => {
    expect([...nameTerms("HubSpot: create a deal. IBM quantum hardware")]).toEqual(["hubspot", "ibm"]);
  });

  it("ignores sentence starts, lowercase text, single letters and words with digits", () => {
    expect(nameTerms("Deploy my app").size).toBe(0);
    expect(nameTerms("deploy my next.js app to vercel").size).toBe(0);
    expect(nameTerms("Note: Fix the tests. Done? Ship it! I think so").size).toBe(0);
    expect(nameTerms("write tests for my C# service on S3 in Q3").size).toBe(0);
  });
});

describe("a named product the skill never mentions", () => {
  const index = createSearchIndex([
    {
      name: "deploy-to-vercel",
      description: "Deploy applications and websites to Vercel.",
      body: "# Deploy\nRun `vercel deploy` for a preview and `vercel --prod` for production.",
      path: "/skills/deploy-to-vercel/SKILL.md",
    },
    { name: "slide-deck", description: "Build a slide deck.", body: "# Slides", path: "/skills/slide-deck/SKILL.md" },
  ]);
  const top = (query: string) => index.search(query)[0]!.score;

  it("lowers the score (a request naming another product is probably not for this skill)", () => {
    expect(top("Please deploy my app to Netlify")).toBeLessThan(top("please deploy my app to netlify"));
  });

  it("costs little when the skill names it in name or description, more when its body mentions it once", () => {
    const named = top("Please deploy my app to Vercel") / top("please deploy my app to vercel");
    expect(named).toBeLessThan(1);
    expect(named).toBeGreaterThan(0.9);
    expect(top("Please deploy my app to Vercel")).toBeGreaterThan(top("Please deploy my app to Netlify"));
    const dns = createSearchIndex([
      {
        name: "dns-records",
        description: "Manage DNS records at your domain registrar.",
        body: `# DNS\n${"Add, edit and remove A, CNAME and TXT records. ".repeat(20)}Moving from Cloudflare?`,
        path: "/skills/dns-records/SKILL.md",
      },
      { name: "slide-deck", description: "Build a slide deck.", body: "# Slides", path: "/skills/slide-deck/SKILL.md" },
    ]);
    const inBody =
      dns.search("Add a DNS record in Cloudflare")[0]!.score / dns.search("add a dns record in cloudflare")[0]!.score;
    expect(inBody).toBeLessThan(named);
  });
});
