import type { SkillMetadata } from "../skill/skill-types.js";
import type { LoadedCandidate } from "../sources/loaded-candidate.js";
import type { DiskSkillCandidate } from "../sources/skill-source.js";

/** A skill's metadata as a snapshot file stores it: without its origin (the live source gives it back on reuse). */
export type StoredSkillMetadata = Omit<SkillMetadata, "origin">;

/**
 * A `LoadedCandidate` read from disk as a snapshot file stores it, a strict projection (nothing added): the disk
 * candidate's fields side by side with the load result, the metadata without its origin, and no body.
 */
export type StoredCandidate = Omit<DiskSkillCandidate, "kind"> &
  Pick<LoadedCandidate, "sourceId" | "hash" | "refused" | "racy"> & {
    metadata: StoredSkillMetadata | undefined;
  };

/** The stored projection of a candidate loaded from disk. */
export function storedCandidateOf(entry: LoadedCandidate & { candidate: DiskSkillCandidate }): StoredCandidate {
  const { candidate, sourceId, hash, refused, racy } = entry;
  let metadata: StoredSkillMetadata | undefined;
  if (entry.metadata) {
    const { origin: _origin, ...rest } = entry.metadata;
    metadata = rest;
  }
  const { dir, file, root, identity } = candidate;
  return { sourceId, dir, file, root, identity, hash, metadata, refused, racy };
}
