import { describe, expect, it } from "vitest";
import { splitWords, tokenize } from "./tokenize.js";

describe("splitWords", () => {
  it("splits skill names on hyphens, underscores and dots", () => {
    expect(splitWords("pdf-api-io-automation")).toEqual(["pdf", "api", "io", "automation"]);
    expect(splitWords("sales_analytics next.js")).toEqual(["sales", "analytics", "next", "js"]);
  });

  it("splits camelCase and letter/digit boundaries and also keeps the whole word", () => {
    expect(splitWords("NotebookLM")).toEqual(["notebook", "lm", "notebooklm"]);
    expect(splitWords("getHTTPResponse")).toEqual(["get", "http", "response", "gethttpresponse"]);
    expect(splitWords("react18")).toEqual(["react", "18", "react18"]);
  });

  it("turns CJK runs into overlapping character pairs", () => {
    expect(splitWords("写周报")).toEqual(["写周", "周报"]);
    expect(splitWords("周")).toEqual(["周"]);
  });
});

describe("tokenize", () => {
  it("drops stop words and request filler, and stems the rest", () => {
    expect(tokenize("Please help me with deploying my apps to Vercel")).toEqual(["help", "deploi", "app", "vercel"]);
  });

  it("returns nothing for text made only of stop words or punctuation", () => {
    expect(tokenize("what is it? -- ...")).toEqual([]);
  });
});
