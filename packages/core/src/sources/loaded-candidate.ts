import type { SkillDiagnostic, SkillMetadata } from "../skill/skill-types.js";
import type { SkillCandidate } from "./skill-source.js";

/**
 * The one record of a SKILL.md the registry keeps: a source's candidate after loading, with its metadata (or why it
 * was refused) and, until indexed, its body. A snapshot file stores a projection of it (`StoredCandidate`).
 */
export interface LoadedCandidate {
  candidate: SkillCandidate;
  sourceId: string;
  /** Undefined when the skill could not be loaded (or was refused in strict mode). */
  metadata: SkillMetadata | undefined;
  /** Diagnostics of a refused skill (a loaded skill carries its own in `metadata.diagnostics`). */
  refused: SkillDiagnostic[];
  /** Body held only between loading and indexing, then dropped. */
  body: string | undefined;
  /** sha256 of the SKILL.md bytes read (also when the skill was refused after reading), else undefined. */
  hash: string | undefined;
  /**
   * Racily clean: read (or recorded) within the racy window of its last change, so a later equal stat is not proof
   * enough and the hash is compared. Stored in a snapshot file's `verify` column.
   */
  racy: boolean;
}
