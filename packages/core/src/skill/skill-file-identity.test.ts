import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempFolder } from "./__fixtures__/skill-folders.js";
import { sameSkillFileIdentity, statSkillFile } from "./skill-file-identity.js";

const temp = useTempFolder("skillgraph-identity-");

describe("statSkillFile", () => {
  it("returns the same identity while the file is untouched and a different one after a rewrite", async () => {
    const file = join(temp.skill("stable", "v1"), "SKILL.md");
    const first = await statSkillFile(file);
    const again = await statSkillFile(file);
    expect(first && again && sameSkillFileIdentity(first, again)).toBe(true);
    writeFileSync(file, "version 2");
    utimesSync(file, new Date(2_000_000_000_000), new Date(2_000_000_000_000));
    const changed = await statSkillFile(file);
    expect(first && changed && sameSkillFileIdentity(first, changed)).toBe(false);
  });

  it("returns undefined for a missing file", async () => {
    expect(await statSkillFile(join(temp.root(), "nope", "SKILL.md"))).toBeUndefined();
  });
});
