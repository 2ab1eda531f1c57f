import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempFolder } from "./__fixtures__/skill-folders.js";
import { identityFromBigStats, sameFileIdentity } from "./skill-file-identity.js";

const temp = useTempFolder("skillgraph-identity-");
const identity = (file: string) => identityFromBigStats(statSync(file, { bigint: true }));

describe("sameFileIdentity (the one identity comparison: registry reloads and snapshots)", () => {
  it("is the same while the file is untouched and different after a rewrite", () => {
    const file = join(temp.skill("stable", "v1"), "SKILL.md");
    const first = identity(file);
    expect(sameFileIdentity(first, identity(file))).toBe(true);
    writeFileSync(file, "version 2");
    utimesSync(file, new Date(2_000_000_000_000), new Date(2_000_000_000_000));
    expect(sameFileIdentity(first, identity(file))).toBe(false);
  });

  it("sees a same-size rewrite whose mtime was put back (ctime moved), which mtime, size and inode alone miss", () => {
    const file = join(temp.skill("sneaky", "v1"), "SKILL.md");
    const when = new Date(1_700_000_000_000);
    utimesSync(file, when, when);
    const first = identity(file);
    writeFileSync(file, readFileSync(file, "utf8").replace("v1", "v2"));
    utimesSync(file, when, when);
    let after = identity(file);
    // File times come from a coarse kernel clock: within one tick the ctime cannot move. Touch again until it has
    // (bounded by time, and said if it never does).
    const deadline = Date.now() + 5_000;
    while (after.ctimeNs === first.ctimeNs && Date.now() < deadline) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
      utimesSync(file, when, when);
      after = identity(file);
    }
    expect(after.ctimeNs, "the file's ctime did not move within 5 s").not.toBe(first.ctimeNs);
    // The removed copy compared only these three: it called the rewritten file unchanged.
    expect([after.mtimeMs, after.size, after.ino]).toEqual([first.mtimeMs, first.size, first.ino]);
    expect(sameFileIdentity(first, after)).toBe(false);
  });
});
