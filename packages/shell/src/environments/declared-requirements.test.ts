import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { installRequirementsText, readSkillRequirements } from "./skill-environments.js";

describe("requirements declared in frontmatter (tama depends.uv)", () => {
  it("gives a skill without a requirements file an environment from depends.uv, the file winning when present", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "declared-"));
    const root = path.join(dir, "envs");
    const declared = await readSkillRequirements(
      { name: "greeter", dir, dependencies: { uv: ["tinygreet>=1"] } },
      root,
    );
    expect(declared).toMatchObject({ file: "", packages: ["tinygreet>=1"], text: "tinygreet>=1\n" });
    if (!declared || "error" in declared) throw new Error("expected requirements");
    expect(declared.recordDir.startsWith(path.join(root, "greeter-"))).toBe(true);
    expect(declared.hostDir).toBe(path.join(declared.recordDir, "env"));
    expect(installRequirementsText(declared)).toBe("tinygreet>=1\n");
    writeFileSync(path.join(dir, "requirements.txt"), "openpyxl==3.1.2\n");
    const fromFile = await readSkillRequirements({ name: "greeter", dir, dependencies: { uv: ["tinygreet"] } }, root);
    expect(fromFile).toMatchObject({ file: "requirements.txt", packages: ["openpyxl==3.1.2"] });
  });

  it("refuses a declared entry that is a URL or has options, and ignores an empty list", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "declared-"));
    const url = await readSkillRequirements(
      { name: "x", dir, dependencies: { uv: ["evil@https://e.test/x.whl"] } },
      dir,
    );
    expect(url).toEqual({ error: expect.stringContaining("is not a plain package requirement") });
    expect(await readSkillRequirements({ name: "x", dir, dependencies: { uv: [] } }, dir)).toBeUndefined();
  });
});
