import { describe, expect, it } from "vitest";
import { missingRequirements } from "./check-requirements.js";
import { requiredBinaries } from "./required-binaries.js";

describe("requiredBinaries", () => {
  it("reads requires lists, requires.bins and metadata.requires", () => {
    expect(requiredBinaries({ extra: { requires: ["jq", "git"] } })).toEqual(["git", "jq"]);
    expect(requiredBinaries({ extra: { requires: { bins: ["ffmpeg"], mcp: ["rube"] } } })).toEqual(["ffmpeg"]);
    expect(requiredBinaries({ metadata: { requires: "pandoc, node" } })).toEqual(["node", "pandoc"]);
    expect(requiredBinaries({ metadata: { openclaw: { requires: { bins: ["uv"] } } } })).toEqual(["uv"]);
  });

  it("finds well-known programs named in compatibility text", () => {
    expect(requiredBinaries({ compatibility: "Requires python3 and git" })).toEqual(["git", "python3"]);
    expect(
      requiredBinaries({ compatibility: "Cross-platform. Requires Python 3.8+ and git. Run scripts/scan.py" }),
    ).toEqual(["git", "python3"]);
    expect(requiredBinaries({ compatibility: "Works with any session. Optional: git, gh CLI." })).toEqual([]);
    expect(requiredBinaries({ compatibility: "Requires an OpenRouter API key" })).toEqual([]);
  });
});

describe("missingRequirements", () => {
  it("names the programs not found on the fixed PATH", () => {
    expect(missingRequirements({ extra: { requires: ["sh", "no-such-program-xyz"] } }, "/usr/bin:/bin")).toEqual({
      required: ["no-such-program-xyz", "sh"],
      missing: ["no-such-program-xyz"],
    });
  });

  it("checks tama's depends.bins like requires", () => {
    expect(requiredBinaries({ dependencies: { bins: ["jq", "pandoc"] } })).toEqual(["jq", "pandoc"]);
  });
});
