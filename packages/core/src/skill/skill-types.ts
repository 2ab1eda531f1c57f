import type { DiagnosticSeverity } from "../errors/diagnostic-codes.js";

/** One problem found in a skill, as data: a stable `code`, the file it concerns and, when known, the field. */
export interface SkillDiagnostic {
  /** Stable rule code, e.g. `name-dir-mismatch` (see docs/diagnostics.md). */
  code: string;
  severity: DiagnosticSeverity;
  /** Human message naming the file and field, e.g. `skills/foo/SKILL.md: name 'Foo' must be lowercase`. */
  message: string;
  /** Absolute path of the file (or folder) concerned. */
  path: string;
  /** Frontmatter field concerned, when there is one. */
  field?: string;
  /** 1-based line in the file, when known (YAML errors and strict-subset violations). */
  line?: number;
  /** 1-based column in the file, when known. */
  column?: number;
}

/** Where a skill came from; `layer` decides precedence (user < project < explicit). */
export type SkillLayer = "user" | "project" | "explicit";

/** Identifies the source a skill was found in. */
export interface SkillOrigin {
  /** Stable id of the source, e.g. `dir:/abs/path`, `npm:pkg-name`, `code:my-skills`. */
  sourceId: string;
  layer: SkillLayer;
  kind: "directory" | "npm" | "code" | "store";
}

/** Level-1 view of a skill: everything but the body. Cheap to hold for thousands of skills. */
export interface SkillMetadata {
  /** The declared name, trimmed (the registry key). */
  name: string;
  /** The declared description, trimmed. */
  description: string;
  license?: string;
  compatibility?: string;
  /** `metadata` as declared (values kept as parsed). */
  metadata?: Record<string, unknown>;
  /** `allowed-tools`, split into entries (space-separated string or YAML list). Empty when absent. */
  allowedTools: string[];
  /** Declared dependencies (tama `depends`: bins, apt, uv); never installed by skillgraph. */
  dependencies?: SkillDependencies;
  /** Frontmatter keys outside the spec (e.g. `requires`, `version`), kept as parsed. */
  extra: Record<string, unknown>;
  /** Absolute path of the skill folder ("" for a skill defined in code without a folder). */
  dir: string;
  /** Absolute path of the SKILL.md file ("" for a skill defined in code). */
  file: string;
  origin: SkillOrigin;
  /** sha256 (hex) of the SKILL.md bytes: lets sessions detect that a skill changed on disk. */
  hash: string;
  /** Problems found while loading (lenient loading keeps the skill when name and description are usable). */
  diagnostics: SkillDiagnostic[];
}

/** A skill with its markdown body (level 2). */
export interface Skill extends SkillMetadata {
  body: string;
}

/** Dependencies a skill declares in another runtime's dialect (tama `depends`). Never installed by skillgraph. */
export interface SkillDependencies {
  /** Programs that must be on PATH (checked like `requires`). */
  bins: string[];
  /** Debian packages; reported with the `apt-get install` command that would install them. */
  apt: string[];
  /** Python packages; reported with the `uv pip install` command that would install them. */
  uv: string[];
}
