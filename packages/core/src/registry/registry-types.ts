import type { SkillDiagnostic, SkillMetadata } from "../skill/skill-types.js";
import type { SearchOptions, SearchResult } from "../search/search-types.js";

/** A file inside a skill folder (level 3), path relative to the skill folder with `/` separators. */
export interface SkillFileEntry {
  path: string;
  size: number;
}

/** Options for reading a skill's resource file. */
export interface ReadSkillFileOptions {
  /** Refuse files larger than this many bytes. @default 262144 */
  maxBytes?: number;
}

/** A resource file's content; binary files are refused with an error, never returned. */
export interface SkillFileContent {
  path: string;
  size: number;
  content: string;
}

/** A skill hidden by another of the same name from a higher-precedence source. */
export interface ShadowedSkill {
  name: string;
  /** The skill that wins. */
  winner: Pick<SkillMetadata, "file" | "origin">;
  /** The skill that lost. */
  shadowed: Pick<SkillMetadata, "file" | "origin">;
}

/** Per-consumer filter over a registry; never mutates the registry or other views. */
export interface SkillViewOptions {
  /** Only these skill names are visible (when set). */
  only?: readonly string[];
  /** These names are hidden. */
  exclude?: readonly string[];
  /** These names are hidden (disabled by the user or the agent). */
  disabled?: readonly string[];
}

/** What a reload changed. */
export interface ReloadReport {
  added: string[];
  removed: string[];
  changed: string[];
  /** SKILL.md files re-read (stat changed). */
  reread: number;
  /** SKILL.md files whose stat was unchanged and were reused. */
  reused: number;
  /** Of `reused`, those taken from the persistent snapshot file (first load only). */
  fromSnapshot: number;
  /**
   * Of `reused`, those whose stat was unchanged but too close to their last read (or to the snapshot's writing) to
   * prove a same-tick edit did not happen ("racy git"): re-read, and reused because the bytes hash the same.
   */
  verified: number;
  version: number;
}

/** Read access to a consistent set of skills: the registry itself and every view over it implement this. */
export interface SkillCatalog {
  /** Monotonic snapshot version; bumps on every reload that changed something. */
  readonly version: number;
  /** Level 1: metadata of every visible skill, sorted by name (deterministic). */
  list(): SkillMetadata[];
  /** Metadata of one visible skill, or undefined. */
  get(name: string): SkillMetadata | undefined;
  /** Whether a visible skill has this name. */
  has(name: string): boolean;
  /** Level 2: the markdown body of a skill (read on demand, never cached in metadata). Throws SkillNotFoundError. */
  readBody(name: string): Promise<string>;
  /** Level 3: the files inside a skill folder (excluding SKILL.md), confined to the folder. */
  listFiles(name: string): Promise<SkillFileEntry[]>;
  /** Level 3: read one file of a skill; refuses `..`, absolute paths, NUL bytes, symlinks leading outside, binary files. */
  readFile(name: string, relativePath: string, options?: ReadSkillFileOptions): Promise<SkillFileContent>;
  /**
   * Ranked search over name, description and body (lexical, synchronous). An array is several phrasings of one need
   * (the request as written plus rewrites in a skill author's words), fused by reciprocal rank.
   */
  search(query: string | readonly string[], options?: SearchOptions): SearchResult[];
  /**
   * Ranked search fused with embeddings when the registry has an `embeddings` model (else the same as `search`);
   * falls back to the lexical ranking when the embeddings service fails.
   */
  searchAsync(query: string | readonly string[], options?: SearchOptions): Promise<SearchResult[]>;
  /** A filtered view sharing this catalog's snapshot. */
  view(options: SkillViewOptions): SkillCatalog;
}

/** The layered registry: a catalog that can reload from its sources. */
export interface SkillRegistry extends SkillCatalog {
  /** Re-stat every source, re-read only changed SKILL.md files, swap in a new snapshot atomically. */
  reload(): Promise<ReloadReport>;
  /** Skills hidden by a same-named skill of higher precedence. */
  shadowed(): ShadowedSkill[];
  /** Problems not tied to a loaded skill (unreadable folders, refused skills, source errors). */
  diagnostics(): SkillDiagnostic[];
  /** Stops watching sources (`watch: true`) and waits for a reload in progress. The registry stays readable. */
  close(): Promise<void>;
}
