// @skillgraph/core: read, validate, discover, search and render Agent Skills; pure load-state logic. No LangChain.

// errors
export { SkillgraphError, type SkillgraphErrorOptions } from "./errors/skillgraph-error.js";
export {
  SKILLGRAPH_ERROR_CODES,
  SOURCE_DIAGNOSTIC_CODES,
  docsUrlForCode,
  type SkillgraphErrorCode,
  type SkillPathReason,
  type SourceDiagnosticCode,
} from "./errors/error-codes.js";
export { SkillNotFoundError } from "./errors/skill-not-found-error.js";
export { SkillPathError } from "./errors/skill-path-error.js";
export { SkillLoadError } from "./errors/skill-load-error.js";
export { InvalidOptionsError } from "./errors/invalid-options-error.js";
export { integerOption, type IntegerOptionBounds } from "./errors/integer-option.js";
export { SkillDriftError, type SkillDriftPolicy } from "./errors/skill-drift-error.js";

// skills: types, parsing, validation, loading
export type {
  DiagnosticSeverity,
  Skill,
  SkillDiagnostic,
  SkillLayer,
  SkillMetadata,
  SkillOrigin,
} from "./skill/skill-types.js";
export { installHints } from "./skill/frontmatter-dialects.js";
export type { SkillDependencies } from "./skill/frontmatter-dialects.js";
export {
  loadSkill,
  loadSkillFile,
  loadSkillFromText,
  type LoadSkillOptions,
  type LoadSkillFromTextOptions,
  type LoadedSkillFile,
} from "./skill/load-skill.js";
export { validateSkill, type ValidateSkillOptions, type SkillValidationResult } from "./skill/validate-skill.js";
export { readSkillProperties, type SkillProperties } from "./skill/read-skill-properties.js";
export { DEFAULT_MAX_SKILL_MD_BYTES, type ReadSkillMdOptions } from "./skill/read-skill-file.js";

// sources
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

// registry snapshots (fast cold start)
export {
  buildRegistrySnapshot,
  type BuildRegistrySnapshotOptions,
  type BuiltRegistrySnapshot,
} from "./snapshot/build-registry-snapshot.js";
export { defaultSnapshotFolder, defaultSnapshotFile } from "./snapshot/snapshot-location.js";

// search
export type { SearchDocument, SearchOptions, SearchResult } from "./search/search-types.js";
export { createSearchIndex, type SearchIndex, type SearchIndexUpdate } from "./search/search-index.js";
export type { SkillEmbeddings } from "./search/skill-embeddings.js";

// prompt rendering
export { toPrompt } from "./prompt/to-prompt.js";
export { escapeHtml } from "./prompt/escape-html.js";
export { renderSkillsPrompt } from "./prompt/render-skills-prompt.js";
export { defaultPreamble } from "./prompt/resolve-render-options.js";
export { createSkillsPromptRenderer, type SkillsPromptRenderer } from "./prompt/create-skills-prompt-renderer.js";
export { estimateTokens } from "./prompt/estimate-tokens.js";
export type {
  PromptFormat,
  PromptTemplate,
  PromptBudget,
  PromptSkillEntry,
  RenderSkillsPromptOptions,
  RenderLevel,
  RenderReport,
  RenderedSkillsPrompt,
} from "./prompt/prompt-types.js";

// load state (pure)
export type {
  LoadMode,
  LoadedSkillEntry,
  SkillLoadState,
  SkillLoadEvent,
  SkillLoadJournal,
  LoadStateOptions,
  LoadedSkillDrift,
} from "./load-state/load-state-types.js";
export { emptyLoadState } from "./load-state/empty-load-state.js";
export { applyLoadEvents } from "./load-state/apply-load-events.js";
export { createLoadStateReducer } from "./load-state/create-load-state-reducer.js";
export { loadedSkillNames } from "./load-state/loaded-skill-names.js";
export { nextSeq } from "./load-state/next-seq.js";
export { detectLoadedSkillDrift } from "./load-state/detect-loaded-skill-drift.js";
export { SKILLS_STATE_KEY, type AgentSkillsState, type SkillsStateValue } from "./load-state/skills-state-key.js";

// tool hooks (the contract between the interceptor and tool providers such as @skillgraph/shell)
export type { SkillsToolHook, SkillsToolHookContext, SkillsToolAuthorization } from "./hooks/skills-tool-hook.js";

// race-free file work in folders a sandboxed command or a skill author controls (used by @skillgraph/shell)
export {
  openConfinedFolder,
  withConfinedFolder,
  splitRelativePath,
  confinedFolderIsRaceFree,
  type ConfinedFolder,
  type ConfinedEntry,
  type ConfinedFailure,
  type ConfinedFileRead,
  type ConfinedRefusal,
  type ConfinedReadOptions,
  type ConfinedListOptions,
} from "./safe-fs/confined-folder.js";
export { isInsideFolder } from "./safe-fs/is-inside-folder.js";
export { isBinaryContent, TEXT_SNIFF_BYTES } from "./safe-fs/binary-content.js";

// Declarative agent files (skillgraph.agent.yaml / package.json "skillgraph").
export {
  loadAgentFile,
  AGENT_FILE_NAMES,
  AgentFileError,
  type AgentFile,
  type AgentApprovalPolicy,
  type AgentShellExecutor,
} from "./agent-file/index.js";
