import { describe, expect, it } from "vitest";
import { porterStem } from "./porter-stem.js";

describe("porterStem", () => {
  it("reduces inflections of one word to the same stem", () => {
    expect(new Set(["connect", "connected", "connecting", "connection", "connections"].map(porterStem))).toEqual(
      new Set(["connect"]),
    );
    expect(porterStem("deploying")).toBe(porterStem("deployed"));
    expect(porterStem("deployments")).toBe(porterStem("deployment"));
  });

  it("matches the published Porter examples", () => {
    const cases: Record<string, string> = {
      caresses: "caress",
      ponies: "poni",
      cats: "cat",
      feed: "feed",
      agreed: "agre",
      plastered: "plaster",
      motoring: "motor",
      hopping: "hop",
      filing: "file",
      happy: "happi",
      relational: "relat",
      conditional: "condit",
      rational: "ration",
      digitizer: "digit",
      hopefulness: "hope",
      formalize: "formal",
      electrical: "electr",
      adjustment: "adjust",
      adoption: "adopt",
      controll: "control",
      generalization: "gener",
    };
    for (const [word, stem] of Object.entries(cases)) expect([word, porterStem(word)]).toEqual([word, stem]);
  });

  it("leaves short words, digits and non-ASCII words unchanged", () => {
    expect(porterStem("is")).toBe("is");
    expect(porterStem("v2")).toBe("v2");
    expect(porterStem("周报")).toBe("周报");
  });
});
