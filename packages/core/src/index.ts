// @skillgraph/core: what an app uses — skills from sources into a registry, reading and validating SKILL.md, and the
// errors it throws. Every other concept has its own subpath (see "Package entry points" in the README):
// /search, /prompt, /snapshot, /skill, /errors, /agent-file, and for integrations /load-state, /hooks, /safe-fs.
// Each name is exported from exactly one entry; every type the functions below take or return is exported here.

// errors an app catches (the code tables: @skillgraph/core/errors)
export { SkillgraphError, type SkillgraphErrorOptions } from "./errors/skillgraph-error.js";
export type { SkillgraphErrorCode, SkillPathReason } from "./errors/error-codes.js";
export { SkillNotFoundError } from "./errors/skill-not-found-error.js";
export { SkillPathError } from "./errors/skill-path-error.js";
export { SkillLoadError } from "./skill/skill-load-error.js";
export { InvalidOptionsError } from "./errors/invalid-options-error.js";
export { SkillDriftError, type SkillDriftPolicy } from "./load-state/skill-drift-error.js";
export { SkillSourceError, type SkillSourceProblem } from "./errors/skill-source-error.js";
export type { LoadedSkillDrift } from "./load-state/load-state-types.js";

// skills: types, loading, validation (lower-level SKILL.md reading: @skillgraph/core/skill)
export type { DiagnosticSeverity } from "./errors/diagnostic-codes.js";
export type { Skill, SkillDiagnostic, SkillLayer, SkillMetadata, SkillOrigin } from "./skill/skill-types.js";
export { loadSkill, type LoadSkillOptions } from "./skill/load-skill.js";
export { validateSkill, type ValidateSkillOptions, type SkillValidationResult } from "./skill/validate-skill.js";
export { SKILL_DIALECTS, type SkillDialect } from "./skill/skill-dialect.js";
export { readSkillProperties, type SkillProperties } from "./skill/read-skill-properties.js";
export type { ReadSkillMdOptions } from "./skill/read-skill-file.js";
export type { SkillDependencies } from "./skill/skill-types.js";

// sources, and the contract for writing your own
export type {
  SkillSource,
  SkillCandidate,
  DiskSkillCandidate,
  CodeSkillCandidate,
  RemoteSkillCandidate,
  SourceScan,
  FileIdentity,
} from "./sources/skill-source.js";
export { skillsFromDirectory, type DirectorySourceOptions } from "./sources/directory-source.js";
export { skillsFromFolders, type FoldersSource } from "./sources/folders-source.js";
export {
  conventionalSources,
  PROJECT_SKILL_FOLDERS,
  USER_SKILL_FOLDERS,
  type ConventionalSourcesOptions,
} from "./sources/conventional-sources.js";
export { skillsFromPackage, skillsFromDependencies, type PackageSourceOptions } from "./sources/package-source.js";
export {
  defineSkill,
  skillsFromCode,
  type SkillDefinition,
  type DefinedSkill,
  type CodeSourceOptions,
} from "./sources/code-source.js";

// registry
export { createSkillRegistry, type SkillRegistryOptions } from "./registry/create-skill-registry.js";
export type {
  SkillCatalog,
  SkillRegistry,
  SkillFileEntry,
  SkillFileContent,
  ReadSkillFileOptions,
  ShadowedSkill,
  SkillViewOptions,
  ReloadReport,
} from "./registry/registry-types.js";
export { DEFAULT_MAX_RESOURCE_BYTES } from "./registry/skill-resources.js";
export type { SearchOptions, SearchResult } from "./search/search-types.js";
export type { SkillEmbeddings } from "./search/skill-embeddings.js";
