import { describe, expect, it } from "vitest";
import { productDescriptions } from "./product-glossary.js";
import { createSearchIndex } from "./search-index.js";

describe("product glossary", () => {
  it("describes products named in a skill's name or description, whole words only, multi-word names included", () => {
    expect(productDescriptions("chatwork-automation: Automate Chatwork rooms")).toContain("japanese business chat");
    expect(productDescriptions("Manage Capsule CRM contacts")).toContain("small business");
    expect(productDescriptions("capsule-crm-automation")).toContain("small business");
    expect(productDescriptions("A linearly growing list of chatworkers")).toBe("");
  });

  it("lets a query that describes a product instead of naming it find the product's skill", () => {
    const index = createSearchIndex([
      { name: "chatwork-automation", description: "Automate Chatwork via Composio.", body: "Use the tools.", path: "/a" },
      { name: "slack-notes", description: "Summarise notes.", body: "Notes.", path: "/b" },
    ]);
    expect(index.search("post in the japanese business chat app")[0]?.name).toBe("chatwork-automation");
  });
});
