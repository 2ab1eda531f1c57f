import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeTree } from "../../../../../test/support/skill-tree.js";
import { captureIO } from "../../__fixtures__/capture-io.js";
import { runCli } from "../../run-cli.js";

const TAMA =
  "---\nname: fetcher\ndescription: Fetch pages.\ntools: [http_get]\ntama:\n  depends:\n    bins: [curl]\n---\nFetch.\n";

describe("skillgraph validate --dialect", () => {
  it("refuses a tama skill by default and accepts it under --dialect tama, with dialect-field notes", async () => {
    const dir = writeTree({ "fetcher/SKILL.md": TAMA });
    const reference = captureIO(dir);
    expect(await runCli(["validate", "--json", join(dir, "fetcher")], reference)).toBe(1);
    const tama = captureIO(dir);
    expect(await runCli(["validate", "--json", "--strict", "--dialect", "tama", join(dir, "fetcher")], tama)).toBe(0);
    const [result] = JSON.parse(tama.out()).results;
    expect(result.valid).toBe(true);
    expect(result.diagnostics.map((diagnostic: { code: string }) => diagnostic.code)).toEqual(
      expect.arrayContaining(["dialect-field"]),
    );
  });

  it("is a usage error for an unknown dialect", async () => {
    const dir = writeTree({ "fetcher/SKILL.md": TAMA });
    const io = captureIO(dir);
    expect(await runCli(["validate", "--dialect", "yaml", join(dir, "fetcher")], io)).toBe(2);
    expect(io.err()).toContain("--dialect must be one of reference, tama, spring, claude, any");
  });
});
