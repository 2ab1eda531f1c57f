import { ServedCandidate } from "../snapshot/served-candidate.js";
import type { SkillMetadata } from "../skill/skill-types.js";
import type { LoadedCandidate } from "../sources/loaded-candidate.js";

// A loaded skill's name, description, content hash and file as its metadata says them, read without making the
// metadata of a candidate served from the snapshot file (made only when a list, a lookup or a render asks for it).

/** A loaded skill, its metadata known to exist. */
export type LoadedSkill = LoadedCandidate & { metadata: SkillMetadata };

/** The skill's name; undefined for a refused one. */
export function skillNameOf(entry: LoadedCandidate): string | undefined {
  return entry instanceof ServedCandidate ? entry.name : entry.metadata?.name;
}

/** The skill's description. */
export function skillDescriptionOf(entry: LoadedSkill): string {
  return entry instanceof ServedCandidate ? entry.description : entry.metadata.description;
}

/** The metadata's content hash. */
export function skillHashOf(entry: LoadedSkill): string {
  return entry instanceof ServedCandidate ? entry.metadataHash! : entry.metadata.hash;
}

/** The metadata's SKILL.md path. */
export function skillFileOf(entry: LoadedSkill): string {
  return entry instanceof ServedCandidate ? entry.metadataFile : entry.metadata.file;
}
