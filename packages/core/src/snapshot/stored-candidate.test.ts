// A snapshot file stores a strict projection of the registry's one SKILL.md record: every stored field is the loaded
// record's own value (the disk candidate's fields side by side), nothing is added, the origin and the body are left out.
import { describe, expect, expectTypeOf, it } from "vitest";
import { skillMd, writeTree } from "../../../../test/support/skill-tree.js";
import { loadCandidate } from "../registry/load-candidate.js";
import { skillsFromDirectory } from "../sources/directory-source.js";
import type { LoadedCandidate } from "../sources/loaded-candidate.js";
import type { DiskSkillCandidate } from "../sources/skill-source.js";
import { storedCandidateOf, type StoredCandidate } from "./stored-candidate.js";

/** The loaded records of a real folder of skills (one loads, one is refused). */
async function loadedFromDisk(): Promise<Array<LoadedCandidate & { candidate: DiskSkillCandidate }>> {
  const root = writeTree({
    "good/SKILL.md": skillMd("good", "Does good things."),
    "bad/SKILL.md": "---\nname: bad\n---\nno description\n",
  });
  const source = skillsFromDirectory(root);
  const { candidates } = await source.scan();
  const loaded = [];
  for (const candidate of candidates) {
    if (candidate.kind !== "disk") throw new Error("a folder source gives disk candidates");
    const entry = await loadCandidate(candidate, source, { strict: true, maxBytes: 1 << 20 });
    loaded.push({ ...entry, candidate });
  }
  return loaded.sort((a, b) => a.candidate.dir.localeCompare(b.candidate.dir));
}

describe("StoredCandidate", () => {
  it("is a projection of LoadedCandidate: only its fields and its disk candidate's, nothing added", () => {
    type Projected = Exclude<keyof DiskSkillCandidate, "kind"> | Exclude<keyof LoadedCandidate, "candidate" | "body">;
    expectTypeOf<keyof StoredCandidate>().toEqualTypeOf<Projected>();
    expectTypeOf<StoredCandidate["metadata"]>().toEqualTypeOf<
      Omit<NonNullable<LoadedCandidate["metadata"]>, "origin"> | undefined
    >();
  });

  it("keeps every value of a loaded record and of a refused one, without the origin and the body", async () => {
    const [bad, good] = await loadedFromDisk();
    expect(good!.metadata?.name).toBe("good");
    expect(bad!.metadata).toBeUndefined();
    expect(bad!.refused.length).toBeGreaterThan(0);
    for (const loaded of [good!, bad!]) {
      const stored = storedCandidateOf(loaded);
      const { kind: _kind, ...candidate } = loaded.candidate;
      const { origin: _origin, ...metadata } = loaded.metadata ?? { origin: undefined };
      expect(stored).toEqual({
        ...candidate,
        sourceId: loaded.sourceId,
        hash: loaded.hash,
        refused: loaded.refused,
        racy: loaded.racy,
        metadata: loaded.metadata ? metadata : undefined,
      });
      expect(Object.keys(stored).sort()).toEqual(
        ["dir", "file", "root", "identity", "sourceId", "hash", "refused", "racy", "metadata"].sort(),
      );
    }
  });
});
