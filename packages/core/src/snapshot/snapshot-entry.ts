import type { SkillDiagnostic, SkillMetadata } from "../skill/skill-types.js";
import type { FileIdentity } from "../sources/skill-source.js";

/** One SKILL.md as recorded in a snapshot: where it was, its stat identity, and what loading it gave. */
export interface SnapshotEntry {
  sourceId: string;
  dir: string;
  file: string;
  root: string;
  identity: FileIdentity;
  /** sha256 of the bytes read, when the file could be read. */
  hash: string | undefined;
  /** Loaded metadata (no body), or undefined when the skill was refused. */
  metadata: Omit<SkillMetadata, "origin"> | undefined;
  refused: SkillDiagnostic[];
  /** Racily clean (recorded, or read, within the racy window of its last change): trust it only after comparing the content hash. Stored in the `verify` column. */
  racy: boolean;
}
