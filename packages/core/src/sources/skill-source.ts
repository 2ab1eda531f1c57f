import type { FileIdentity } from "../skill/skill-file-identity.js";
import type { SkillDiagnostic, SkillLayer, SkillOrigin } from "../skill/skill-types.js";

export type { FileIdentity };

/** A skill folder found on disk by a source. */
export interface DiskSkillCandidate {
  kind: "disk";
  /** Absolute skill folder. */
  dir: string;
  /** Absolute SKILL.md (or skill.md) path. */
  file: string;
  identity: FileIdentity;
  /** Folder the skill must stay inside (its SKILL.md may not be a symlink leading out of it). */
  root: string;
}

/** A skill defined in code: its SKILL.md text and optional resource files held in memory. */
export interface CodeSkillCandidate {
  kind: "code";
  /** Stable key within the source (the declared name). */
  key: string;
  /** Full SKILL.md text (frontmatter + body). */
  text: string;
  /** Resource files, path relative to the skill (level 3). */
  files: Readonly<Record<string, string>>;
}

/**
 * A skill held by a remote store (e.g. a LangGraph `BaseStore`): read on demand, re-read only when `version` changes.
 * Everything it returns is validated by the registry exactly like a file.
 */
export interface RemoteSkillCandidate {
  kind: "remote";
  /** Stable key within the source (the published folder name). */
  key: string;
  /** Changes whenever the skill's SKILL.md or any of its files change (e.g. a content hash). */
  version: string;
  /** Folder name the skill was published from, for the name/folder check; left out, the check is skipped. */
  dirName?: string;
  /** Where it lives, for messages, e.g. `store:skillgraph/skills/pdf`. */
  location: string;
  /** The SKILL.md text. */
  readText(): Promise<string>;
  /** Level 3: the skill's files (path relative to the skill, `/` separators) and their sizes in bytes. */
  listFiles(): Promise<Array<{ path: string; size: number }>>;
  /** Level 3: one file's text, or undefined when there is no such file. */
  readFile(path: string): Promise<string | undefined>;
}

/** Anything a source can yield. */
export type SkillCandidate = DiskSkillCandidate | CodeSkillCandidate | RemoteSkillCandidate;

/** What one scan of a source found. */
export interface SourceScan {
  candidates: SkillCandidate[];
  /** Problems with the source itself (missing folder, unreadable directory, cycle, depth limit). */
  diagnostics: SkillDiagnostic[];
}

/** A place skills come from: a folder tree, an npm package, code. Scans are cheap to repeat (reload). */
export interface SkillSource {
  /** Stable id, e.g. `dir:/abs/path`. */
  readonly id: string;
  readonly layer: SkillLayer;
  readonly kind: SkillOrigin["kind"];
  /** Finds the skills this source holds now. */
  scan(): Promise<SourceScan>;
  /**
   * Every folder this source read on its last scan (root first), for a registry created with `watch: true`: each is
   * watched (not recursively). Absent, or a root that does not exist: the source is polled.
   */
  watchRoots?(): string[];
  /** What the source learnt while scanning (folder listings), JSON-safe, to persist in a registry snapshot. */
  exportScanState?(): unknown;
  /**
   * Seeds a fresh source with state from a snapshot (untrusted: checked here). `writtenNs` is when the snapshot was
   * written, for the racy rule. Returns false when the state is malformed (then nothing is seeded).
   */
  importScanState?(state: unknown, writtenNs: bigint): boolean;
}
